/** Writer files: made once per process and folder, found when their process is gone, with their commits. */
import assert from "node:assert/strict";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { localId, tempId } from "../../src/lock/holder.ts";
import { frameRecord } from "../../src/history/log/_frames.ts";
import {
  commitMark,
  deadWriters,
  pendingIn,
  writerFile,
} from "../../src/history/log/_writers.ts";
import type { EntryRecord } from "../../src/history/types.ts";
import { recordOf, tempDir } from "./_log_helpers.ts";

/** A pid no process has (above the kernel's pid limit). */
const NO_PID = 2 ** 22 + 12345;

/** Why a writer of this host cannot be judged by its pid here, or false. */
const NOT_LOCAL = localId(tempId())
  ? false
  : "this host cannot name its boot and PID namespace";

describe("history log writers", () => {
  it("a process makes one writer file per folder, naming its first id and boot", () => {
    const t = tempDir();
    try {
      const name = writerFile(t.dir, 42);
      assert.equal(writerFile(t.dir, 99), name);
      assert.match(name, /^[0-9a-f]{16}\.\d+$/);
      const [floor, boot] = readFileSync(join(t.dir, "writers", name), "utf8")
        .split("\n");
      assert.equal(floor, "42");
      assert.ok(boot.length > 0);
      assert.deepEqual(deadWriters(t.dir, () => []), [], "its own is alive");
    } finally {
      t.remove();
    }
  });

  it(
    "a writer of this host whose process is gone is dead, and forgotten on request",
    {
      skip: NOT_LOCAL,
    },
    () => {
      const t = tempDir();
      try {
        mkdirSync(join(t.dir, "writers"));
        const name = `${tempId()}.${NO_PID}`;
        writeFileSync(join(t.dir, "writers", name), "7\n-\n");
        writeFileSync(join(t.dir, "writers", "not-a-writer"), "");
        const floors: number[] = [];
        const gone = deadWriters(t.dir, (w, floor) => {
          assert.equal(w, name);
          floors.push(floor);
          return [];
        });
        assert.equal(gone.length, 1);
        assert.equal(gone[0].name, name);
        assert.equal(gone[0].dead, true);
        assert.equal(gone[0].rebooted, false);
        assert.deepEqual(gone[0].pending(), []);
        assert.deepEqual(floors, [7]);
        gone[0].forget();
        assert.equal(existsSync(join(t.dir, "writers", name)), false);
      } finally {
        t.remove();
      }
    },
  );

  it("pendingIn finds the commits a writer's records name, oldest first, back to its first id", () => {
    const t = tempDir();
    try {
      const file = join(t.dir, "log");
      const sha = "a".repeat(64);
      const marked = (id: string, writer: string, after?: string) =>
        ({
          ...recordOf(id),
          commit: commitMark(writer, {
            target: `/r/${id}`,
            temp: `.${id}.tmp`,
            newIno: 5,
            ...(after ? { after, before: null } : {}),
          }),
        }) as EntryRecord;
      writeFileSync(
        file,
        [
          marked("h_1", "w1"),
          marked("h_2", "w1", sha),
          marked("h_3", "w2"),
          recordOf("h_4"),
          marked("h_5", "w1"),
        ].map(frameRecord).join(""),
      );
      const fd = openSync(file, "r");
      try {
        const stats = { bytesRead: 0, parsed: 0 };
        const all = pendingIn(fd, "w1", 1, stats);
        assert.deepEqual(all.map((c) => c.id), ["h_1", "h_2", "h_5"]);
        assert.deepEqual(all[1], {
          id: "h_2",
          offset: all[1].offset,
          target: "/r/h_2",
          temp: ".h_2.tmp",
          newIno: 5,
          after: sha,
          before: null,
        });
        assert.equal(all[0].after, undefined);
        assert.deepEqual(
          pendingIn(fd, "w1", 2, stats).map((c) => c.id),
          ["h_2", "h_5"],
        );
      } finally {
        closeSync(fd);
      }
    } finally {
      t.remove();
    }
  });
});
