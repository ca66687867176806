import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import { npmExportsFor } from "../../scripts/_npm_exports.ts";
import { REPO_ROOT, runtimeName } from "../_spawn.ts";
import { type LocalRegistry, startRegistry } from "./_registry.ts";

const BIN = join(REPO_ROOT, "node_modules", ".bin");
const readJson = async (file: string) =>
  JSON.parse(await readFile(join(REPO_ROOT, file), "utf8"));

interface Run {
  code: number | null;
  out: string;
}

/** Runs a command to its end; output is stdout and stderr interleaved. */
function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (b) => (out += b));
    child.stderr.on("data", (b) => (out += b));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

async function ok(
  cmd: string,
  args: string[],
  cwd: string,
  env?: Record<string, string>,
): Promise<string> {
  const r = await run(cmd, args, cwd, env);
  assert.equal(
    r.code,
    0,
    `${cmd} ${args.join(" ")} failed in ${cwd}:\n${r.out}`,
  );
  return r.out;
}

/** The install lines of the README's "Install" section, by tool. */
async function readmeInstallLines(): Promise<Record<string, string[]>> {
  const readme = await readFile(join(REPO_ROOT, "README.md"), "utf8");
  const section = readme.split(/^## Install$/m)[1]?.split(/^## /m)[0];
  assert.ok(section, "README.md has an Install section");
  const lines: Record<string, string[]> = {};
  for (const raw of section.split("\n")) {
    const line = raw.replace(/\s+#.*$/, "").trim();
    const m = /^(npm install|bun add|deno add) ((?:npm:|jsr:)?@hashline\/kit)$/
      .exec(line);
    if (m) lines[m[1].split(" ")[0]] = line.split(" ");
  }
  for (const tool of ["npm", "bun", "deno"]) {
    assert.ok(lines[tool], `README Install has a ${tool} line`);
  }
  return lines;
}

describe("npm package metadata", () => {
  it("package.json exports are deno.json's subpaths, compiled (types and default)", async () => {
    const deno = await readJson("deno.json");
    const pkg = await readJson("package.json");
    assert.deepEqual(
      pkg.exports,
      npmExportsFor(deno.exports),
      "package.json exports drifted from deno.json: run `deno task build:npm --sync`",
    );
    assert.equal(pkg.version, deno.version);
    assert.equal(pkg.name, "@hashline/kit");
    assert.equal(pkg.private, undefined);
  });

  it("heavy drivers are optional peers, kept as dev dependencies for the repo", async () => {
    const pkg = await readJson("package.json");
    for (
      const name of [
        "@modelcontextprotocol/server",
        "postgres",
        "@hono/node-server",
        "ai",
      ]
    ) {
      assert.equal(pkg.dependencies[name], undefined, name);
      assert.ok(pkg.peerDependencies[name], name);
      assert.deepEqual(pkg.peerDependenciesMeta[name], { optional: true });
      if (name === "ai") continue;
      assert.equal(pkg.devDependencies[name], pkg.peerDependencies[name]);
    }
    // The AI SDK adapter works with ai 6 and 7; the repo develops on ai 6,
    // the newest major whose packages install on Node 20 without a warning.
    assert.equal(pkg.peerDependencies.ai, "^6.0.0 || ^7.0.0");
    assert.match(pkg.devDependencies.ai, /^\^6\./);
    assert.deepEqual(pkg.files, ["dist/", "README.md", "LICENSE", "docs/"]);
    assert.equal(pkg.engines.node, ">=20");
    assert.equal(pkg.bin.hashline, "dist/bin/hashline.js");
  });
});

// Building, packing and four installs take a minute or two, and the suite
// runs every file under three runtimes; the consumers are the same either
// way (each runs its own runtime), so the smoke runs once, under Deno.
const smokeHere = runtimeName() === "deno" ||
  process.env.HASHLINE_PACKAGE_SMOKE === "1";

describe("npm package in consumer folders outside the repository", {
  skip: smokeHere
    ? false
    : "the consumer smoke runs once per suite, under deno test (HASHLINE_PACKAGE_SMOKE=1 runs it here)",
}, () => {
  let temp = "";
  let registry: LocalRegistry | undefined;
  let env: Record<string, string> = {};
  let lines: Record<string, string[]> = {};
  let packed: string[] = [];
  let tarball = "";

  before(async () => {
    lines = await readmeInstallLines();
    temp = await realpath(await mkdtemp(join(tmpdir(), "hashline-npm-")));
    await ok(BIN + "/deno", ["run", "-A", "scripts/build_npm.ts"], REPO_ROOT);
    const pack = JSON.parse(
      await ok("npm", [
        "pack",
        "--json",
        "--ignore-scripts",
        "--pack-destination",
        temp,
      ], REPO_ROOT),
    );
    packed = pack[0].files.map((f: { path: string }) => f.path);
    tarball = join(temp, pack[0].filename);
    const upstream = (await ok("npm", ["config", "get", "registry"], REPO_ROOT))
      .trim();
    registry = await startRegistry(
      tarball,
      await readJson("package.json"),
      upstream,
    );
    await mkdir(join(temp, "cache"));
    env = {
      npm_config_registry: registry.url,
      NPM_CONFIG_REGISTRY: registry.url,
      BUN_CONFIG_REGISTRY: registry.url,
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
      // Fresh caches: the version number is the same from build to build.
      BUN_INSTALL_CACHE_DIR: join(temp, "cache", "bun"),
      DENO_DIR: join(temp, "cache", "deno"),
      DENO_NO_UPDATE_CHECK: "1",
    };
  });

  after(async () => {
    await registry?.close();
    if (temp) await rm(temp, { recursive: true, force: true });
  });

  /** A consumer folder with a package.json (ESM) and the smoke script. */
  async function consumer(name: string): Promise<string> {
    const dir = join(temp, name);
    await mkdir(dir);
    await writeFile(
      join(dir, "package.json"),
      JSON.stringify({
        name: `consumer-${name}`,
        private: true,
        type: "module",
      }),
    );
    await copyFile(
      join(REPO_ROOT, "tests", "package", "_smoke.mjs"),
      join(dir, "smoke.mjs"),
    );
    return dir;
  }

  it("the tarball holds the build, README, LICENSE and docs only", () => {
    const outside = packed.filter((p) =>
      !/^(dist\/|docs\/|README\.md$|LICENSE$|package\.json$)/.test(p)
    );
    assert.deepEqual(outside, []);
    assert.ok(packed.includes("dist/mod.js"));
    assert.ok(packed.includes("dist/mod.d.ts"));
    assert.ok(packed.includes("dist/src/hash/_wasm_bytes.js"));
    assert.ok(!packed.some((p) => p.endsWith(".ts") && !p.endsWith(".d.ts")));
  });

  it("installs with the README's npm line and runs under plain Node 20 and Node 22, bin included", async () => {
    const dir = await consumer("node");
    const [npm, ...args] = lines.npm;
    await ok(npm, args, dir, env);
    const installed = (await readdir(join(dir, "node_modules"))).sort();
    assert.ok(!installed.includes("@modelcontextprotocol"), "no MCP SDK");
    assert.ok(!installed.includes("postgres"), "no postgres");
    const node20 = await ok("node", ["smoke.mjs"], dir);
    assert.match(node20, /^smoke ok: node 2\d\./m);
    const node22 = await ok(
      "npm",
      [
        "exec",
        "--yes",
        "--package=node@22",
        "--",
        "node",
        "smoke.mjs",
      ],
      dir,
      env,
    );
    assert.match(node22, /^smoke ok: node 22\./m);
    await writeFile(join(dir, "a.txt"), "def greet(name):\n");
    const read = await ok(
      join(dir, "node_modules", ".bin", "hashline"),
      ["read", "a.txt"],
      dir,
    );
    assert.match(read, /^1:fb\|def greet\(name\):$/m);
  });

  it("installs from a packed tarball by path, as the README's Install says for a checkout", async () => {
    const dir = await consumer("tarball");
    await ok("npm", ["install", tarball], dir, env);
    assert.match(await ok("node", ["smoke.mjs"], dir), /^smoke ok: node /m);
  });

  it("installs with the README's bun line and runs under Bun", async () => {
    const dir = await consumer("bun");
    const [, ...args] = lines.bun;
    const hits = registry!.tarballHits();
    await ok(BIN + "/bun", args, dir, env);
    assert.equal(
      registry!.tarballHits(),
      hits + 1,
      "bun fetched the packed tarball",
    );
    assert.match(
      await ok(BIN + "/bun", ["smoke.mjs"], dir, env),
      /^smoke ok: bun /m,
    );
  });

  it("installs with the README's deno line (an npm: specifier) and runs under Deno", async () => {
    const dir = join(temp, "deno");
    await mkdir(dir);
    await writeFile(join(dir, "deno.json"), "{}\n");
    await copyFile(
      join(REPO_ROOT, "tests", "package", "_smoke.mjs"),
      join(dir, "smoke.mjs"),
    );
    const [, ...args] = lines.deno;
    const hits = registry!.tarballHits();
    await ok(BIN + "/deno", args, dir, env);
    assert.equal(
      registry!.tarballHits(),
      hits + 1,
      "deno fetched the packed tarball",
    );
    const config = JSON.parse(await readFile(join(dir, "deno.json"), "utf8"));
    assert.match(config.imports["@hashline/kit"], /^npm:@hashline\/kit@/);
    assert.match(
      await ok(BIN + "/deno", ["run", "-A", "smoke.mjs"], dir, env),
      /^smoke ok: deno /m,
    );
  });

  it("the declarations of /edge, /patch, /anchor and /hash type-check without @types/node", async () => {
    const dir = await consumer("tsc-edge");
    await ok("npm", ["install", "@hashline/kit"], dir, env);
    const installed = await readdir(join(dir, "node_modules"));
    assert.ok(!installed.includes("@types"), "no @types/* installed");
    await writeFile(
      join(dir, "index.ts"),
      [
        `import { createEdgeApp } from "@hashline/kit/edge";`,
        `import * as patch from "@hashline/kit/patch";`,
        `import { formatHashlines } from "@hashline/kit/anchor";`,
        `import { lineHash } from "@hashline/kit/hash";`,
        `const hash: string = lineHash("a");`,
        `const lines: number = formatHashlines("a\\n").totalLines;`,
        `// @ts-expect-error a hash is a string, so this fails unless the types were lost`,
        `const wrong: number = lineHash("a");`,
        `export { createEdgeApp, patch, hash, lines, wrong };`,
      ].join("\n") + "\n",
    );
    await writeFile(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          lib: ["es2022", "dom"],
          strict: true,
          noEmit: true,
          types: [],
        },
        files: ["index.ts"],
      }),
    );
    // The repository's own TypeScript, run from the consumer folder, where
    // no @types/node can be found.
    await ok(BIN + "/tsc", ["-p", "."], dir);
  });

  it("type-checks in a plain nodenext consumer importing the root and every subpath", async () => {
    const dir = await consumer("tsc");
    const dev = (await readJson("package.json")).devDependencies;
    const peers = [
      "ai",
      "@modelcontextprotocol/server",
      "postgres",
      "@hono/node-server",
    ];
    await ok(
      "npm",
      [
        "install",
        "@hashline/kit",
        ...["typescript", "@types/node", ...peers].map((p) => `${p}@${dev[p]}`),
        // The AI SDK's own declarations import json-schema's types without depending on them.
        "@types/json-schema",
      ],
      dir,
      env,
    );
    const subpaths = Object.keys((await readJson("deno.json")).exports);
    const imports = subpaths.map((s, i) =>
      `import * as m${i} from "@hashline/kit${s === "." ? "" : s.slice(1)}";`
    );
    await writeFile(
      join(dir, "index.ts"),
      [
        ...imports,
        `import { formatHashlines, type ToolRegistry } from "@hashline/kit";`,
        `import { lineHash } from "@hashline/kit/hash";`,
        `import { aiSdkTools } from "@hashline/kit/ai-sdk";`,
        `import { generateText } from "ai";`,
        `import { openAiTools, type ChatCompletionsTool } from "@hashline/kit/openai";`,
        `const lines: number = formatHashlines("a\\n").totalLines;`,
        `// @ts-expect-error a hash is a string, so this fails unless the types were lost`,
        `const wrong: number = lineHash("a");`,
        `const use = (r: ToolRegistry): ChatCompletionsTool[] => openAiTools(r).chatTools;`,
        `const system = (r: ToolRegistry): string => aiSdkTools(r).system;`,
        `// The tool set goes to the AI SDK as it is, with no cast.`,
        `const run = (r: ToolRegistry) => generateText({ model: "openai/gpt-5", tools: aiSdkTools(r).tools, prompt: "hi" });`,
        `export { ${
          subpaths.map((_, i) => `m${i}`).join(", ")
        }, lines, wrong, use, system, run };`,
      ].join("\n") + "\n",
    );
    await writeFile(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          strict: true,
          noEmit: true,
          types: ["node"],
        },
        files: ["index.ts"],
      }),
    );
    await ok(join(dir, "node_modules", ".bin", "tsc"), ["-p", "."], dir);
  });
});
