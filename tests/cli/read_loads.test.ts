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
import { evaluatedUnder } from "./_cli.ts";

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
  return evaluatedUnder(r.stderr, REPO_ROOT);
}

/** The write path's modules among `loaded`: history, locks, commits, drift and view resolution. */
function writePathOf(loaded: Set<string>): string[] {
  return [...loaded].filter((m) =>
    (/^src\/(history|lock|commit)\//.test(m) &&
      m !== "src/history/types.ts" &&
      // The check for something to settle, which every call runs.
      m !== "src/history/settle.ts") ||
    /^src\/patch\/(resolve_views|carry|_drift|align|fresh)\.ts$/.test(m)
  );
}

/** The edit-only modules among `loaded`: the dialect parsers and the syntax checker. */
function editOnlyOf(loaded: Set<string>): string[] {
  return [...loaded].filter((m) =>
    /^src\/patch\/dialects\/(?!sniff\.ts$)/.test(m) ||
    /^src\/check\/(?!gate\.ts$|languages\.ts$|modes\.ts$)/.test(m)
  );
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
        // The first read, in a state folder no write has used, and the
        // re-read before an edit, the common call.
        for (const call of ["first read", "re-read"]) {
          const loaded = evaluated(dir, env, ["read", "f.txt"]);
          assert.ok(
            loaded.has("src/read/read.ts"),
            `${call}: the debug log named the modules (found ${loaded.size})`,
          );
          // A first read writes its record, whose temporary the holder
          // module names; a re-read that shows nothing new writes none.
          const expected = call === "first read" ? ["src/lock/holder.ts"] : [];
          assert.deepEqual(writePathOf(loaded), expected, call);
          assert.deepEqual(editOnlyOf(loaded), [], call);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
