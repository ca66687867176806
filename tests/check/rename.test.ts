import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createToolRegistry } from "../../src/tools/mod.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { tempTree } from "../http/_helpers.ts";
import { hashline } from "../cli/_cli.ts";

const BROKEN = "export const x = ;\n";

/** The files under `dir` (recursively, `.hashline` left out), sorted. */
async function filesIn(dir: string, under = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, under), { withFileTypes: true })) {
    const rel = under === "" ? e.name : `${under}/${e.name}`;
    if (e.name === ".hashline") continue;
    if (e.isDirectory()) out.push(rel + "/", ...await filesIn(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

describe("a rename into a checked extension is checked under its new name", () => {
  it(
    "library: `@@ bad.txt -> bad.ts` and a JSON rename into a new folder are refused under refuse; files stay",
    {
      timeout: 60_000,
    },
    async () => {
      const tree = await tempTree({ "bad.txt": BROKEN, "b.js": BROKEN });
      try {
        const ws = openWorkspace(tree.dir, {
          stateDir: join(tree.dir, ".hashline"),
          check: "refuse",
        });
        await ws.read("bad.txt");
        await ws.read("b.js");
        const patches: Parameters<typeof ws.patch>[0][] = [
          "@@ bad.txt -> bad.ts\n",
          { files: [{ path: "bad.txt", rename: "sub/bad.ts", ops: [] }] },
          // Another grammar before: its errors were never judged as TypeScript.
          { files: [{ path: "b.js", rename: "b.ts", ops: [] }] },
        ];
        for (const patch of patches) {
          await assert.rejects(
            ws.patch(patch),
            (e: Error & { code?: string }) => {
              assert.equal(e.code, "SYNTAX", e.message);
              assert.match(e.message, /^Rejected — nothing written\./);
              assert.match(
                e.message,
                /\.ts: the edit introduces 1 typescript syntax error/,
              );
              return true;
            },
          );
          assert.deepEqual(await filesIn(tree.dir), ["b.js", "bad.txt"]);
          assert.equal(
            await readFile(join(tree.dir, "bad.txt"), "utf8"),
            BROKEN,
          );
        }
        // Under warn it lands, with the errors named.
        const warn = openWorkspace(tree.dir, {
          stateDir: join(tree.dir, ".hashline"),
        });
        await warn.read("bad.txt");
        const r = await warn.patch("@@ bad.txt -> bad.ts\n");
        assert.equal(r.checks[0]?.path, "bad.ts");
        assert.equal(r.checks[0]?.status, "broken");
      } finally {
        await tree.cleanup();
      }
    },
  );

  it(
    "library: a rename between names of one grammar still blames only what the edit introduced",
    {
      timeout: 60_000,
    },
    async () => {
      const tree = await tempTree({ "a.ts": BROKEN });
      try {
        const ws = openWorkspace(tree.dir, {
          stateDir: join(tree.dir, ".hashline"),
          check: "refuse",
        });
        await ws.read("a.ts");
        const r = await ws.patch("@@ a.ts -> b.mts\n");
        assert.equal(r.checks[0]?.status, "ok");
        assert.equal(await readFile(join(tree.dir, "b.mts"), "utf8"), BROKEN);
      } finally {
        await tree.cleanup();
      }
    },
  );

  it(
    "CLI and tool registry: the rename is refused with SYNTAX and nothing moves",
    {
      timeout: 60_000,
    },
    async () => {
      const tree = await tempTree({ "bad.txt": BROKEN });
      try {
        const run = {
          cwd: tree.dir,
          env: { HASHLINE_STORE: join(tree.dir, ".hashline") },
        };
        assert.equal((await hashline(["read", "bad.txt"], run)).code, 0);
        const cli = await hashline(["patch", "-", "--check", "refuse"], {
          ...run,
          input: "@@ bad.txt -> bad.ts\n",
        });
        assert.equal(cli.code, 1, cli.stdout + cli.stderr);
        assert.match(cli.stdout + cli.stderr, /SYNTAX|syntax error/);
        assert.deepEqual(await filesIn(tree.dir), ["bad.txt"]);

        const workspace = openWorkspace(tree.dir, {
          stateDir: join(tree.dir, ".hashline"),
        });
        const tools = Object.fromEntries(
          createToolRegistry({ workspace, check: "refuse" }).tools.map((
            t,
          ) => [t.name, t]),
        );
        await tools.read_file.handler({ path: "bad.txt" });
        const refused = await tools.edit_file.handler({
          patch: "@@ bad.txt -> bad.ts\n",
        });
        assert.equal(refused.ok, false);
        assert.equal(refused.ok ? "" : refused.error.code, "SYNTAX");
        assert.deepEqual(await filesIn(tree.dir), ["bad.txt"]);
        assert.equal(await readFile(join(tree.dir, "bad.txt"), "utf8"), BROKEN);
      } finally {
        await tree.cleanup();
      }
    },
  );
});
