/**
 * A patch refused for want of file handles (`ulimit -n 64`, 200 files in
 * five folders) releases every lock it took: no `.NAME.hashline-lock` file
 * is left in the user's folders, and nothing is written.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  mkdir,
  mkdtemp,
  readdir,
  realpath,
  rm,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { REPO_ROOT } from "../_spawn.ts";

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      out.push(...(await walk(join(dir, e.name))).map((n) => `${e.name}/${n}`));
    } else out.push(e.name);
  }
  return out;
}

const hasBash = spawnSync("bash", ["-c", "ulimit -n 64"]).status === 0;

describe("locks under a file handle limit", () => {
  it(
    "a 200-file patch refused BUSY under ulimit -n 64 leaves no lock file",
    {
      timeout: 120_000,
      skip: hasBash ? false : "needs bash with ulimit -n",
    },
    async () => {
      const base = await realpath(
        await mkdtemp(join(tmpdir(), "hashline-fd-")),
      );
      try {
        const root = join(base, "root");
        const patch: string[] = [];
        for (let i = 0; i < 200; i++) {
          await mkdir(join(root, `d${i % 5}`), { recursive: true });
          patch.push(`@@+ d${i % 5}/n${i}.txt`, "+", `~line ${i}`);
        }
        const file = join(base, "patch.txt");
        await writeFile(file, patch.join("\n") + "\n");
        const r = spawnSync("bash", [
          "-c",
          'ulimit -n 64; exec "$0" patch "$1" --root "$2" --state "$3" --json',
          join(REPO_ROOT, "bin", "hashline"),
          file,
          root,
          join(base, "state"),
        ], { encoding: "utf8" });
        assert.equal(r.status, 1, r.stderr + r.stdout);
        assert.equal(JSON.parse(r.stdout).error.code, "BUSY", r.stdout);
        // Only the five folders, as they were: no lock, no new file.
        assert.deepEqual(await walk(root), []);
        assert.deepEqual((await readdir(root)).sort(), [
          "d0",
          "d1",
          "d2",
          "d3",
          "d4",
        ]);
      } finally {
        await rm(base, { recursive: true, force: true });
      }
    },
  );
});
