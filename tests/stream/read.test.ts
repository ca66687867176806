import assert from "node:assert/strict";
import {
  appendFile,
  mkdtemp,
  readdir,
  realpath,
  rm,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { formatHashlines } from "../../src/anchor/format.ts";
import { lineHash32 } from "../../src/hash/fnv.ts";
import { Confinement } from "../../src/fs/confine.ts";
import { INDEX_EVERY, LineIndexes } from "../../src/stream/line_index.ts";
import { streamRead } from "../../src/stream/read.ts";

const LINES = INDEX_EVERY * 3 + 17;
const line = (n: number) => n % 7 === 0 ? `  π ${n}\r` : `line ${n}`;

describe("stream/read", () => {
  let dir: string;
  let content: string;
  let confine: Confinement;
  beforeEach(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), "hl-stream-")));
    content = Array.from({ length: LINES }, (_, i) =>
      line(i + 1)).join("\r\n") +
      "\r\n";
    await writeFile(join(dir, "big.txt"), content);
    confine = new Confinement(dir, dir, join(dir, ".hashline"), 2 ** 32);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it(
    "a window anywhere in the file reads as the whole-content view does, with full hashes",
    {
      timeout: 30_000,
    },
    async () => {
      for (
        const offset of [1, INDEX_EVERY - 1, INDEX_EVERY * 2 + 5, LINES - 2]
      ) {
        const target = await confine.resolve("big.txt");
        const { view, hashes } = await streamRead(
          target,
          { offset, limit: 4 },
          undefined,
        );
        const whole = formatHashlines(content, { offset, limit: 4 });
        assert.equal(view.text, whole.text, `window at ${offset}`);
        assert.equal(view.totalLines, LINES);
        assert.equal(view.nextOffset, whole.nextOffset);
        const shown = content.split("\r\n").slice(offset - 1, offset + 3);
        assert.deepEqual(hashes, shown.map(lineHash32).slice(0, hashes.length));
      }
    },
  );

  it(
    "keeps a line index per version of the file, and a changed file gets a new one",
    {
      timeout: 30_000,
    },
    async () => {
      const indexes = new LineIndexes(join(dir, "lineindex"));
      const first = await streamRead(
        await confine.resolve("big.txt"),
        { offset: LINES },
        undefined,
        indexes,
      );
      assert.equal(first.view.text.split("\n").length, 1);
      assert.equal((await readdir(join(dir, "lineindex"))).length, 1);
      await appendFile(join(dir, "big.txt"), "one more\r\n");
      const after = await streamRead(
        await confine.resolve("big.txt"),
        { offset: LINES + 1 },
        undefined,
        indexes,
      );
      assert.equal(after.view.totalLines, LINES + 1);
      assert.match(after.view.text, /\|one more$/);
    },
  );

  it("an offset past the end is a RangeError naming the line count", {
    timeout: 30_000,
  }, async () => {
    await assert.rejects(
      streamRead(
        await confine.resolve("big.txt"),
        { offset: LINES + 5 },
        undefined,
      ),
      (e: unknown) =>
        e instanceof RangeError && e.message.includes(String(LINES)),
    );
  });
});
