import assert from "node:assert/strict";
import {
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { HashlineError } from "../../src/errors.ts";
import { lockFiles, lockName, type LockSpec } from "../../src/lock/lock.ts";

describe("lock/lock", () => {
  let dir: string;
  let spec: (rest: string) => LockSpec;
  beforeEach(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), "hl-lock-")));
    const st = await stat(dir);
    const root = { real: dir, dev: st.dev, ino: st.ino };
    spec = (rest) => ({ root, parts: [], rest, display: rest });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it(
    "a held lock is a file beside the target naming its holder, gone once released",
    {
      timeout: 10_000,
    },
    async () => {
      const release = await lockFiles([spec("a.txt")], 1_000);
      const name = lockName("a.txt");
      assert.ok((await readdir(dir)).includes(name));
      assert.match(await readFile(join(dir, name), "utf8"), /^\d+ \S+/);
      release();
      assert.ok(!(await readdir(dir)).includes(name));
    },
  );

  it(
    "a second taker in the same process waits for the first, and gets BUSY at its deadline",
    {
      timeout: 10_000,
    },
    async () => {
      const release = await lockFiles([spec("a.txt")], 1_000);
      await assert.rejects(
        lockFiles([spec("a.txt")], 100),
        (e: unknown) =>
          e instanceof HashlineError && e.code === "BUSY" &&
          /a\.txt/.test(e.message),
      );
      const order: string[] = [];
      const second = lockFiles([spec("a.txt")], 5_000).then((r) => {
        order.push("second");
        return r;
      });
      await new Promise((r) => setTimeout(r, 20));
      order.push("first released");
      release();
      (await second)();
      assert.deepEqual(order, ["first released", "second"]);
    },
  );

  it(
    "several files are locked together and released together, duplicates once",
    {
      timeout: 10_000,
    },
    async () => {
      const release = await lockFiles(
        [spec("b.txt"), spec("a.txt"), spec("b.txt")],
        1_000,
      );
      const names = (await readdir(dir)).sort();
      assert.deepEqual(names, [lockName("a.txt"), lockName("b.txt")].sort());
      release();
      assert.deepEqual(await readdir(dir), []);
    },
  );

  it("two patches locking the same files in opposite orders never deadlock", {
    timeout: 20_000,
  }, async () => {
    const run = async (first: string, second: string) => {
      for (let i = 0; i < 50; i++) {
        const release = await lockFiles([spec(first), spec(second)], 5_000);
        await Promise.resolve();
        release();
      }
    };
    await Promise.all([run("x", "y"), run("y", "x"), run("x", "y")]);
    assert.deepEqual(await readdir(dir), []);
  });
});
