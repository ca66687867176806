/**
 * The state folder as a repository may ship it: a symlink or hard link at a
 * syntax-check receipt's name never sends the receipt over a file outside
 * the root, a FIFO there is skipped instead of waited on (the CLI answers,
 * the HTTP server keeps serving), and a `.hashline` that is itself a
 * symlink is refused unless it was chosen explicitly. Every case checks
 * the bytes of the files outside the root afterwards.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  link,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  symlink,
  unlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { REPO_ROOT } from "../_spawn.ts";

const HASHLINE = join(REPO_ROOT, "bin", "hashline");
const BEFORE = "const a = 1;\nconst b = 2;\n";

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in the root, with no state folder chosen; killed after 30 s. */
function cli(root: string, args: string[], input = ""): Run {
  const r = spawnSync(HASHLINE, [...args, "--root", root], {
    cwd: root,
    input,
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, HASHLINE_STORE: "" },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The anchor of line 1 as the CLI reads it. */
function firstAnchor(root: string): string {
  const r = cli(root, ["read", "a.ts"]);
  assert.equal(r.status, 0, r.stderr);
  // The read's first line names the path (`@@ a.ts`); the first line of
  // the file follows.
  const first = r.stdout.split("\n").find((l) => /^\d+:[0-9a-f]{2}\|/.test(l));
  return (first ?? "").split("|")[0];
}

/** The edit a.ts 1 → 3, through the CLI. */
function edit(root: string): Run {
  return cli(
    root,
    ["patch", "-", "--json"],
    `@@ a.ts\n= ${firstAnchor(root)}\n~const a = 3;\n`,
  );
}

/**
 * A root whose `.hashline/checks/` names the receipts the edit writes,
 * learnt from a first run of the edit; a.ts is then put back as it was.
 */
async function rootWithReceipts(): Promise<{
  base: string;
  root: string;
  outside: string;
  receipts: string[];
}> {
  const base = await realpath(await mkdtemp(join(tmpdir(), "hashline-st-")));
  const root = join(base, "root");
  const outside = join(base, "outside");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(root, "a.ts"), BEFORE);
  const first = edit(root);
  assert.equal(first.status, 0, first.stderr + first.stdout);
  const checks = join(root, ".hashline", "checks");
  const receipts = (await readdir(checks)).filter((n) => n.endsWith(".json"))
    .map((n) => join(checks, n));
  assert.ok(receipts.length >= 1, "the edit wrote its receipts");
  await writeFile(join(root, "a.ts"), BEFORE);
  for (const r of receipts) await unlink(r);
  return { base, root, outside, receipts };
}

describe("the state folder", () => {
  it(
    "a symlink or hard link at a receipt's name is never written through",
    { timeout: 120_000 },
    async () => {
      const t = await rootWithReceipts();
      try {
        const victim = join(t.outside, "victim.txt");
        const hard = join(t.outside, "hard.txt");
        await writeFile(victim, "keep me\n");
        await writeFile(hard, "keep me too\n");
        await symlink(victim, t.receipts[0]);
        if (t.receipts[1]) await link(hard, t.receipts[1]);
        const r = edit(t.root);
        assert.equal(r.status, 0, r.stderr + r.stdout);
        const body = JSON.parse(r.stdout);
        assert.match(
          body.summary,
          /Warning: A syntax-check receipt was not saved: \S+checks\/[0-9a-f]+\.json is a symlink; hashline does not write over it/,
        );
        if (t.receipts[1]) {
          assert.match(body.summary, /is a file with 2 hard links; hashline/);
        }
        assert.equal(await readFile(victim, "utf8"), "keep me\n");
        assert.equal(await readFile(hard, "utf8"), "keep me too\n");
        assert.ok((await lstat(t.receipts[0])).isSymbolicLink());
        assert.equal(
          await readFile(join(t.root, "a.ts"), "utf8"),
          "const a = 3;\nconst b = 2;\n",
        );
      } finally {
        await rm(t.base, { recursive: true, force: true });
      }
    },
  );

  const mkfifo = spawnSync("mkfifo", ["--help"]).status === 0;
  it(
    "a FIFO at a receipt's name is skipped: the CLI answers",
    { timeout: 120_000, skip: mkfifo ? false : "needs mkfifo" },
    async () => {
      const t = await rootWithReceipts();
      try {
        for (const r of t.receipts) {
          assert.equal(spawnSync("mkfifo", [r]).status, 0);
        }
        const r = edit(t.root);
        assert.equal(r.status, 0, `the CLI hung or failed: ${r.stderr}`);
        assert.match(r.stdout, /is a FIFO; hashline does not write over it/);
        assert.equal(
          await readFile(join(t.root, "a.ts"), "utf8"),
          "const a = 3;\nconst b = 2;\n",
        );
      } finally {
        await rm(t.base, { recursive: true, force: true });
      }
    },
  );

  it(
    "a FIFO at a receipt's name is skipped: the HTTP server keeps serving",
    { timeout: 120_000, skip: mkfifo ? false : "needs mkfifo" },
    async () => {
      const t = await rootWithReceipts();
      let child: ChildProcess | undefined;
      try {
        for (const r of t.receipts) {
          assert.equal(spawnSync("mkfifo", [r]).status, 0);
        }
        child = spawn(HASHLINE, ["serve", "--port", "0", "--root", t.root], {
          cwd: t.root,
          env: { ...process.env, HASHLINE_STORE: "" },
          stdio: ["ignore", "pipe", "pipe"],
        });
        const url = await new Promise<string>((resolve, reject) => {
          let seen = "";
          child!.stdout!.on("data", (d: Buffer) => {
            seen += d.toString();
            const m = /hashline listening on (http:\/\/\S+)/.exec(seen);
            if (m) resolve(m[1]);
          });
          child!.on("close", () => reject(new Error(`exited: ${seen}`)));
        });
        const post = async (route: string, body: unknown) => {
          const res = await fetch(`${url}${route}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(20_000),
          });
          return { status: res.status, body: await res.json() };
        };
        const read = await post("/v1/files/read", { path: "a.ts" });
        assert.equal(read.status, 200);
        const anchor = read.body.text.split("\n")[0].split("|")[0];
        const patched = await post("/v1/files/patch", {
          patch: `@@ a.ts\n= ${anchor}\n~const a = 3;\n`,
        });
        assert.equal(patched.status, 200, JSON.stringify(patched.body));
        const again = await post("/v1/files/read", { path: "a.ts" });
        assert.equal(again.status, 200);
        assert.match(again.body.text, /const a = 3;/);
      } finally {
        if (child && child.exitCode === null) {
          const closed = new Promise((r) => child!.on("close", r));
          child.kill("SIGKILL");
          await closed;
        }
        await rm(t.base, { recursive: true, force: true });
      }
    },
  );

  it(
    "a sessions folder planted as a symlink gets no record and no folder",
    { timeout: 120_000 },
    async () => {
      const base = await realpath(
        await mkdtemp(join(tmpdir(), "hashline-st-")),
      );
      try {
        const root = join(base, "root");
        const away = join(base, "away");
        await mkdir(join(root, ".hashline"), { recursive: true });
        await mkdir(away);
        await writeFile(join(root, "a.ts"), BEFORE);
        await symlink("../../away", join(root, ".hashline", "sessions"));
        const r = cli(root, ["read", "a.ts", "--json"]);
        assert.equal(r.status, 0, r.stderr);
        assert.match(
          JSON.parse(r.stdout).warnings.join("\n"),
          /read record could not be saved \(\S+\/\.hashline\/sessions is a symlink; hashline does not write its state through it/,
        );
        assert.deepEqual(await readdir(away), []);
      } finally {
        await rm(base, { recursive: true, force: true });
      }
    },
  );

  it(
    "a history folder planted as a symlink refuses the edit, writing nothing",
    { timeout: 120_000 },
    async () => {
      const base = await realpath(
        await mkdtemp(join(tmpdir(), "hashline-st-")),
      );
      try {
        const root = join(base, "root");
        const away = join(base, "away");
        await mkdir(join(root, ".hashline"), { recursive: true });
        await mkdir(away);
        await writeFile(join(root, "a.ts"), BEFORE);
        await symlink("../../away", join(root, ".hashline", "history"));
        const r = edit(root);
        assert.equal(r.status, 1, r.stderr);
        const body = JSON.parse(r.stdout);
        assert.equal(body.error.code, "HISTORY");
        assert.match(
          body.error.message,
          /\.hashline\/history is a symlink; hashline does not write its state through it/,
        );
        assert.deepEqual(await readdir(away), []);
        assert.equal(await readFile(join(root, "a.ts"), "utf8"), BEFORE);
      } finally {
        await rm(base, { recursive: true, force: true });
      }
    },
  );

  it(
    "a .hashline that is a symlink is refused unless chosen explicitly",
    { timeout: 120_000 },
    async () => {
      const base = await realpath(
        await mkdtemp(join(tmpdir(), "hashline-st-")),
      );
      try {
        const root = join(base, "root");
        const away = join(base, "away");
        await mkdir(root);
        await mkdir(away);
        await writeFile(join(root, "a.ts"), BEFORE);
        await symlink("../away", join(root, ".hashline"));
        const dir = join(root, ".hashline");
        assert.throws(
          () => openWorkspace(root, {}),
          (e: Error & { code?: string }) =>
            e.code === "OUTSIDE_ROOT" &&
            e.message.includes(`"${dir}": it is a symlink to "../away"`),
        );
        const r = cli(root, ["read", "a.ts", "--json"]);
        assert.equal(r.status, 1, r.stderr);
        const body = JSON.parse(r.stdout);
        assert.equal(body.error.code, "OUTSIDE_ROOT");
        assert.match(body.error.message, /\.hashline".*symlink/);
        assert.deepEqual(await readdir(away), []);
        // Chosen explicitly, the same folder is the user's to use.
        const ws = openWorkspace(root, { stateDir: dir });
        await ws.read("a.ts");
        assert.ok((await readdir(away)).includes("sessions"));
        assert.equal(await readFile(join(root, "a.ts"), "utf8"), BEFORE);
      } finally {
        await rm(base, { recursive: true, force: true });
      }
    },
  );
});
