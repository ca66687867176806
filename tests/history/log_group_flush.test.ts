/** One flush of the log serves every append made while the one before it ran. */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { GroupFlush } from "../../src/history/log/_group_flush.ts";
import { tempDir } from "./_log_helpers.ts";

describe("history log group flush", () => {
  it("covers each append, runs `then` after the flush, and settles", {
    timeout: 10_000,
  }, async () => {
    const t = tempDir();
    try {
      const file = join(t.dir, "log");
      writeFileSync(file, "x\n");
      const g = new GroupFlush(file);
      await g.settled();
      const order: string[] = [];
      const a = g.covered().then(() => order.push("a"));
      g.then(() => order.push("then"));
      const b = g.covered().then(() => order.push("b"));
      await g.settled();
      await Promise.all([a, b]);
      assert.deepEqual(order.sort(), ["a", "b", "then"]);
    } finally {
      t.remove();
    }
  });

  it(
    "a failed flush rejects the appends it covered and never runs their `then`",
    {
      timeout: 10_000,
    },
    async () => {
      const t = tempDir();
      try {
        const g = new GroupFlush(join(t.dir, "missing", "log"));
        let ran = false;
        g.then(() => (ran = true));
        await assert.rejects(g.covered());
        await g.settled();
        assert.equal(ran, false);
      } finally {
        t.remove();
      }
    },
  );
});
