/**
 * `store put FILE` / `importFrom` open the file as the workspace does: a
 * symlink is not followed, a FIFO is never waited on, and the size is judged
 * on the opened handle, so a FIFO or a symlink to `/dev/zero` swapped in
 * between checks neither hangs the call nor loads anything.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  mkdtemp,
  readdir,
  realpath,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import { main } from "../../src/cli/main.ts";
import { openFileStore } from "../../src/store/file_store.ts";
import type { RevisionStore } from "../../src/store/types.ts";

const canFifo = process.platform !== "win32" &&
  spawnSync("mkfifo", ["--help"]).status === 0;
const skip = canFifo ? false : "needs mkfifo (a POSIX system)";

function mkfifo(path: string): void {
  const r = spawnSync("mkfifo", [path]);
  if (r.status !== 0) throw new Error(`mkfifo ${path}: ${r.stderr}`);
}

describe("import opens like the workspace", { skip }, () => {
  let dir: string;
  let store: RevisionStore;

  before(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), "hashline-import-")));
    store = openFileStore(join(dir, "store"));
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses a FIFO given directly with NOT_A_FILE, without waiting for a writer", async () => {
    const fifo = join(dir, "pipe");
    mkfifo(fifo);
    await assert.rejects(store.importFrom(fifo), {
      name: "NotAFileError",
      code: "NOT_A_FILE",
    });
  });

  it("refuses a symlink (to /dev/zero, or to a real file) with NOT_A_FILE", async () => {
    await symlink("/dev/zero", join(dir, "zero"));
    await assert.rejects(store.importFrom(join(dir, "zero")), {
      code: "NOT_A_FILE",
      message: /symbolic link/,
    });
    await writeFile(join(dir, "real.txt"), "real\n");
    await symlink(join(dir, "real.txt"), join(dir, "to-real"));
    await assert.rejects(store.importFrom(join(dir, "to-real")), {
      code: "NOT_A_FILE",
    });
  });

  it("refuses a device given directly with NOT_A_FILE, loading nothing", async () => {
    await assert.rejects(store.importFrom("/dev/zero"), {
      code: "NOT_A_FILE",
    });
  });

  it(
    "reads through the handle past a size the file system under-reports (procfs says 0)",
    {
      skip: process.platform === "linux" ? false : "needs /proc",
    },
    async () => {
      const id = await store.importFrom("/proc/self/mounts");
      const text = await store.get(id.ref);
      assert.ok(text.length > 0);
      assert.match(text, / \/proc /);
    },
  );

  it("the CLI `store put FIFO` is refused NOT_A_FILE", async () => {
    const fifo = join(dir, "cli-pipe");
    mkfifo(fifo);
    let out = "";
    const code = await main(["store", "put", fifo, "--json"], {
      cwd: dir,
      env: (name) => name === "HASHLINE_STORE" ? join(dir, "store") : undefined,
      stdout: (t) => Promise.resolve(void (out += t)),
      stderr: (t) => Promise.resolve(void (out += t)),
    });
    assert.notEqual(code, 0);
    assert.match(out, /NOT_A_FILE/);
  });

  it("a FIFO or a symlink to /dev/zero raced into the path never hangs a put and never loads", async () => {
    const race = join(dir, "race");
    const raceStore = openFileStore(join(dir, "race-store"));
    await writeFile(race, "regular\n");
    // A child swaps the name between a regular file, a FIFO with no writer
    // and a symlink to /dev/zero, each put in place by an atomic rename.
    const swapper: ChildProcess = spawn("bash", [
      "-c",
      `cd "${dir}" || exit 1
       while :; do
         printf 'regular\\n' > r.tmp && mv -fT r.tmp race
         rm -f f.tmp; mkfifo f.tmp && mv -fT f.tmp race
         ln -sfn /dev/zero z.tmp && mv -fT z.tmp race
       done`,
    ], { stdio: "ignore" });
    const outcomes = new Map<string, number>();
    try {
      for (let i = 0; i < 300; i++) {
        let outcome: string;
        try {
          const id = await raceStore.importFrom(race);
          assert.equal(await raceStore.get(id.ref), "regular\n");
          outcome = "put";
        } catch (error) {
          const code = (error as { code?: string }).code ?? String(error);
          // Only refusals that load nothing; never TOO_LARGE (which would
          // mean /dev/zero was read) nor a hang.
          assert.ok(
            code === "NOT_A_FILE" || code === "NOT_FOUND",
            `unexpected refusal ${code}: ${(error as Error).message}`,
          );
          outcome = code;
        }
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
    } finally {
      swapper.kill("SIGKILL");
      await new Promise((r) => swapper.once("exit", r));
    }
    assert.equal(
      [...outcomes.values()].reduce((a, b) => a + b, 0),
      300,
      JSON.stringify([...outcomes]),
    );
    // The store holds exactly the one regular source, nothing else.
    await raceStore.close();
    const objects = await readdir(join(dir, "race-store", "objects"), {
      recursive: true,
    });
    assert.ok(objects.filter((o) => /[0-9a-f]{64}$/.test(o)).length <= 1);
  });
});
