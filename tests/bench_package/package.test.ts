/**
 * bench/ is its own package with its own lock file, installed apart
 * (`npm ci --prefix bench`): its corpora, tokenizers, load tools and the
 * peer library are its dependencies, never the kit's, so the root's
 * `npm ci` does not fetch them; every package a bench imports is declared
 * by the bench or by the kit it measures.
 */
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

// deno-lint-ignore no-explicit-any
async function readJson(path: string): Promise<any> {
  return JSON.parse(await readFile(join(REPO, path), "utf8"));
}

async function sources(dir: string, found: string[] = []): Promise<string[]> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await sources(path, found);
    else if (entry.name.endsWith(".ts")) found.push(path);
  }
  return found;
}

/** `@scope/name` or `name` of a bare import specifier. */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * Node's own type declarations: both packages compile against them, and
 * the bench must pin its copy, or a dependency's older one (through
 * `@anthropic-ai/tokenizer`) is the one `deno check` takes for bench code.
 */
const SHARED_TYPES = new Set(["@types/node"]);

describe("the bench package", () => {
  it("is a private package installed apart, with its own lock file", async () => {
    const root = await readJson("package.json");
    const bench = await readJson("bench/package.json");
    assert.equal(root.workspaces, undefined);
    assert.equal(bench.name, "@hashline/bench");
    assert.equal(bench.private, true);
    assert.ok((await readJson("deno.json")).workspace.includes("./bench"));
    const lock = await readJson("bench/package-lock.json");
    assert.equal(lock.name, "@hashline/bench");
    assert.ok(lock.packages["node_modules/gpt-tokenizer"]);
    // The root's lock holds none of the bench's packages.
    const rootLock = await readJson("package-lock.json");
    for (const name of Object.keys(bench.devDependencies)) {
      if (SHARED_TYPES.has(name)) continue;
      assert.equal(
        rootLock.packages[`node_modules/${name}`],
        undefined,
        `${name} is in the root's lock`,
      );
    }
    assert.match(
      await readFile(join(REPO, ".ci", "run"), "utf8"),
      /npm ci --prefix bench/,
    );
  });

  it("owns its dependencies: the root lists none of them", async () => {
    const root = await readJson("package.json");
    const bench = await readJson("bench/package.json");
    const rootNames = new Set([
      ...Object.keys(root.dependencies ?? {}),
      ...Object.keys(root.devDependencies ?? {}),
    ]);
    for (const name of Object.keys(bench.devDependencies)) {
      if (SHARED_TYPES.has(name)) continue;
      assert.ok(!rootNames.has(name), `${name} is listed by the root too`);
    }
    for (
      const name of [
        "gpt-tokenizer",
        "@anthropic-ai/tokenizer",
        "autocannon",
        "rxjs",
        "immer",
        "preact",
        "execa",
      ]
    ) {
      assert.ok(bench.devDependencies[name], name);
    }
  });

  it("declares every package a bench imports, or the root does", async () => {
    const root = await readJson("package.json");
    const bench = await readJson("bench/package.json");
    const declared = new Set([
      ...Object.keys(root.dependencies ?? {}),
      ...Object.keys(root.devDependencies ?? {}),
      ...Object.keys(bench.devDependencies ?? {}),
    ]);
    const imports = new Map<string, string>();
    for (const file of await sources(join(REPO, "bench"))) {
      const text = await readFile(file, "utf8");
      const found = text.matchAll(
        /\bfrom\s+["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s+["']([^"']+)["']/gm,
      );
      for (const m of found) {
        const spec = m[1] ?? m[2] ?? m[3];
        // Relative paths, Node built-ins, and text that only looks like an import (SQL).
        if (!/^(@[a-z0-9._-]+\/)?[a-z0-9][a-z0-9._-]*(\/.*)?$/.test(spec)) {
          continue;
        }
        imports.set(packageOf(spec), file);
      }
    }
    assert.ok(imports.size > 0);
    for (const [name, file] of imports) {
      assert.ok(declared.has(name), `${name} (imported by ${file})`);
    }
  });
});
