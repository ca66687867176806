/**
 * What a CLI `read` evaluates at run time, seen from outside: Deno's debug
 * log names every module it instantiates (from the code cache or compiled
 * anew). The static graph tests (startup.test.ts) cannot see a module that
 * a lazy loader pulls in while the command runs; this one can.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import process from "node:process";
import { REPO_ROOT } from "../_spawn.ts";

const DENO = join(REPO_ROOT, "node_modules", ".bin", "deno");
const MAIN = join(REPO_ROOT, "src", "cli", "main.ts");

/** Repository modules a Deno run of `args` evaluated, relative to the repository. */
function evaluated(cwd: string, env: Record<string, string>, args: string[]) {
  const r = spawnSync(
    DENO,
    ["run", "-A", "--log-level=debug", MAIN, ...args],
    { cwd, env: { ...process.env, ...env }, encoding: "utf8" },
  );
  assert.equal(r.status, 0, r.stderr.slice(-2000));
  const prefix = `file://${
    REPO_ROOT.endsWith("/") ? REPO_ROOT : REPO_ROOT + "/"
  }`;
  const out = new Set<string>();
  for (
    const m of r.stderr.matchAll(
      /(?:code cache hit for|Updating V8 code cache for) ES module: (file:\/\/\S+?),/g,
    )
  ) {
    if (m[1].startsWith(prefix)) out.add(m[1].slice(prefix.length));
  }
  return out;
}

describe("a CLI read evaluates no module of the write path", () => {
  it(
    "with nothing to settle, no history, lock, recovery or drift module is loaded",
    {
      timeout: 120_000,
    },
    () => {
      const dir = mkdtempSync(join(tmpdir(), "hashline-read-loads-"));
      try {
        writeFileSync(join(dir, "f.txt"), "one\ntwo\nthree\n");
        mkdirSync(join(dir, "state"));
        const env = { HASHLINE_STORE: join(dir, "state") };
        // The first read lays out the state folder (recovery makes its
        // journal folder); the re-read before an edit is the common call.
        evaluated(dir, env, ["read", "f.txt"]);
        const loaded = evaluated(dir, env, ["read", "f.txt"]);
        assert.ok(
          loaded.has("src/read/read.ts"),
          `the debug log named the modules (found ${loaded.size})`,
        );
        const writePath = [...loaded].filter((m) =>
          (/^src\/(history|lock|commit)\//.test(m) &&
            m !== "src/history/types.ts" &&
            // The check for something to settle, which every call runs.
            m !== "src/history/settle.ts") ||
          /^src\/patch\/(resolve_views|carry|_drift|align|fresh)\.ts$/.test(m)
        );
        assert.deepEqual(writePath, []);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
