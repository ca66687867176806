import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { invalidUtf8At } from "../../src/_internal/utf8.ts";
import { makeTree } from "./_helpers.ts";
import { concatBytes } from "../../src/_internal/bytes.ts";

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Whether the platform's strict decoder accepts the bytes. */
function decodes(bytes: Uint8Array): boolean {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Bytes mixing long ASCII runs (the word-skipping path) with arbitrary bytes. */
const mixed = fc.array(
  fc.oneof(
    fc.string({ minLength: 0, maxLength: 80 }).map((s) =>
      Uint8Array.from(s, (c) => c.charCodeAt(0) & 0x7f)
    ),
    fc.string({ unit: "grapheme", maxLength: 6 }).map((s) =>
      new TextEncoder().encode(s)
    ),
    fc.uint8Array({ minLength: 1, maxLength: 4 }),
  ),
  { maxLength: 30 },
).map(concatBytes);

describe("UTF-8 checks of file text", () => {
  it("agree with the platform's strict decoder at every alignment", () => {
    fc.assert(
      fc.property(mixed, fc.nat(7), (bytes, shift) => {
        // Shifting the view moves it off and on the 4-byte word boundary.
        const buf = new Uint8Array(bytes.length + shift);
        buf.set(bytes, shift);
        const view = buf.subarray(shift);
        const bad = invalidUtf8At(view);
        assert.equal(bad === -1, decodes(view));
        if (bad >= 0) {
          // Everything before the reported byte is well formed.
          assert.ok(decodes(view.subarray(0, bad)));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses a read naming the first bad byte, after a long ASCII run at any offset", async () => {
    const tree = await makeTree();
    try {
      const ws = tree.open();
      for (const at of [0, 1, 2, 3, 4, 63, 64, 65, 4096, 4097, 70_001]) {
        const bytes = new TextEncoder().encode(
          "x".repeat(at) + "\n".repeat(3) + "tail\n",
        );
        const broken = new Uint8Array(bytes.length + 1);
        broken.set(bytes.subarray(0, at));
        broken[at] = 0xc3; // a lead byte followed by ASCII: ill-formed
        broken.set(bytes.subarray(at), at + 1);
        const file = join(tree.root, `f${at}.txt`);
        await writeFile(file, broken);
        await assert.rejects(ws.read(`f${at}.txt`), (e: Error) => {
          assert.equal((e as { code?: string }).code, "NOT_TEXT");
          assert.equal((e as { offset?: number }).offset, at);
          assert.match(e.message, new RegExp(`offset ${at}\\b`));
          return true;
        });
        assert.deepEqual(new Uint8Array(await readFile(file)), broken);
      }
    } finally {
      await tree.cleanup();
    }
  });

  it("reads text with multi-byte characters after long ASCII runs unchanged", async () => {
    const tree = await makeTree();
    try {
      const text = "a".repeat(1021) + "é€😀\n" + "b".repeat(77) + "ü\n";
      await writeFile(join(tree.root, "u.txt"), text);
      const view = await tree.open().read("u.txt");
      assert.equal(view.totalLines, 2);
      assert.equal(
        view.text.split("\n").map((l) => l.slice(l.indexOf("|") + 1))
          .join("\n") + "\n",
        text,
      );
    } finally {
      await tree.cleanup();
    }
  });
});
