import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { BinaryContentError } from "../../src/errors.ts";
import {
  createLineScanner,
  hashLines,
  hashLines32,
  lineHash,
  lineHash32,
  scanLines,
} from "../../src/hash/mod.ts";
import { chunkings, ENGINES, scanChunked } from "./_engines.ts";

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text);

/** Line rules: content → the lines it holds and where each ends. */
const cases: {
  name: string;
  bytes: Uint8Array;
  lines: string[];
  ends: number[];
  bom?: boolean;
}[] = [
  {
    name: "empty content has no lines",
    bytes: bytesOf(""),
    lines: [],
    ends: [],
  },
  {
    name: "a lone LF is one empty line",
    bytes: bytesOf("\n"),
    lines: [""],
    ends: [1],
  },
  {
    name: "a final LF ends the last line",
    bytes: bytesOf("a\nb\n"),
    lines: ["a", "b"],
    ends: [2, 4],
  },
  {
    name: "no final terminator",
    bytes: bytesOf("a\nb"),
    lines: ["a", "b"],
    ends: [2, 3],
  },
  {
    name: "CRLF is one terminator",
    bytes: bytesOf("a\r\nb\r\n"),
    lines: ["a", "b"],
    ends: [3, 6],
  },
  {
    name: "mixed terminators",
    bytes: bytesOf("a\r\nb\nc"),
    lines: ["a", "b", "c"],
    ends: [3, 5, 6],
  },
  {
    name: "a lone CR is content",
    bytes: bytesOf("a\rb\n"),
    lines: ["a\rb"],
    ends: [4],
  },
  {
    name: "a trailing CR is content",
    bytes: bytesOf("a\r"),
    lines: ["a\r"],
    ends: [2],
  },
  {
    name: "CR CR LF keeps the first CR",
    bytes: bytesOf("a\r\r\n"),
    lines: ["a\r"],
    ends: [4],
  },
  {
    name: "a CRLF alone is one empty line",
    bytes: bytesOf("\r\n"),
    lines: [""],
    ends: [2],
  },
  {
    name: "two LFs are two empty lines",
    bytes: bytesOf("\n\n"),
    lines: ["", ""],
    ends: [1, 2],
  },
  {
    name: "a leading BOM is not part of line 1",
    bytes: bytesOf("\uFEFFfirst\nsecond\n"),
    lines: ["first", "second"],
    ends: [9, 16],
    bom: true,
  },
  {
    name: "a BOM alone holds no lines",
    bytes: bytesOf("\uFEFF"),
    lines: [],
    ends: [],
    bom: true,
  },
  {
    name: "a BOM later on is content",
    bytes: bytesOf("a\n\uFEFFb"),
    lines: ["a", "\uFEFFb"],
    ends: [2, 6],
  },
  {
    name: "NUL bytes are content",
    bytes: bytesOf("a\u0000b\n"),
    lines: ["a\u0000b"],
    ends: [4],
  },
  {
    name: "astral and combining characters",
    bytes: bytesOf("😀 e\u0301\n\u0301\n"),
    lines: ["😀 e\u0301", "\u0301"],
    ends: [9, 12],
  },
];

describe("line rules", () => {
  for (const c of cases) {
    for (const engine of ENGINES) {
      it(`${c.name} (${engine})`, () => {
        for (const [how, cuts] of chunkings(c.bytes.length)) {
          const scan = scanChunked(engine, c.bytes, cuts);
          assert.deepEqual(scan.hashes, c.lines.map(lineHash32), how);
          assert.deepEqual(scan.ends, c.ends, how);
          assert.equal(scan.hasBom, c.bom ?? false, how);
          assert.equal(scan.linesSeen, c.lines.length, how);
          assert.equal(scan.bytesSeen, c.bytes.length, how);
        }
      });
    }
  }

  it("hashLines skips the BOM and hashes NUL bytes", () => {
    const folds = hashLines(bytesOf("\uFEFFa\u0000b\n"));
    assert.deepEqual([...folds], [0x9a]);
  });
});

/** Ill-formed UTF-8: bytes, offset of the first bad sequence. */
const invalid: [string, number[], number][] = [
  ["a lone continuation byte", [0x61, 0x80, 0x0a], 1],
  ["0xFF", [0x61, 0x62, 0xff], 2],
  ["an overlong NUL (C0 80)", [0xc0, 0x80], 0],
  ["an overlong slash (E0 80 AF)", [0x61, 0xe0, 0x80, 0xaf], 1],
  ["a surrogate (ED A0 80)", [0xed, 0xa0, 0x80, 0x0a], 0],
  ["past U+10FFFF (F4 90 80 80)", [0x0a, 0xf4, 0x90, 0x80, 0x80], 1],
  ["F5 as a lead", [0xf5, 0x80, 0x80, 0x80], 0],
  ["a sequence cut by a newline", [0xe2, 0x82, 0x0a, 0x61], 0],
  ["a sequence cut by the end", [0x61, 0x0a, 0xf0, 0x9f, 0x98], 2],
  ["a sequence cut by CRLF", [0x61, 0xc3, 0x0d, 0x0a], 1],
  ["valid text, then a bad byte far in", [
    ...bytesOf("é😀→ ok\n".repeat(20)),
    0xfe,
  ], 20 * 13],
  ["an incomplete BOM", [0xef, 0xbb], 0],
];

describe("ill-formed UTF-8", () => {
  for (const [name, list, offset] of invalid) {
    const bytes = new Uint8Array(list);
    for (const engine of ENGINES) {
      it(`${name}: reported at byte ${offset} (${engine})`, () => {
        const reference = scanChunked("ts", bytes);
        for (const [how, cuts] of chunkings(bytes.length)) {
          const scan = scanChunked(engine, bytes, cuts);
          assert.equal(scan.invalidAt, offset, how);
          assert.deepEqual(scan.hashes, reference.hashes, how);
          assert.deepEqual(scan.ends, reference.ends, how);
        }
      });
    }
    it(`${name}: hashLines and hashLines32 refuse it (both engines)`, () => {
      const calls = ENGINES.flatMap((engine) => [
        () => hashLines(bytes, { engine }),
        () => hashLines32(bytes, { engine }),
      ]);
      for (const call of calls) {
        assert.throws(call, (error: unknown) => {
          assert.ok(error instanceof BinaryContentError);
          assert.equal(error.offset, offset);
          assert.equal(error.code, "NOT_TEXT");
          assert.equal(
            error.message,
            `Cannot hash content: invalid UTF-8 at byte ${offset}.`,
          );
          return true;
        });
      }
    });
  }

  it("hashes an ill-formed byte as the code point of its value", () => {
    // 0xE9 alone hashes like U+00E9 (é), which feeds the single byte E9.
    const scan = scanLines(new Uint8Array([0xe9]));
    assert.deepEqual([...scan.hashes], [lineHash32("é")]);
    assert.equal(scan.invalidAt, 0);
  });

  it("reports the first NUL and the first bad sequence separately", () => {
    for (const engine of ENGINES) {
      const scan = scanLines(new Uint8Array([0x61, 0xff, 0x0a, 0x00, 0x00]), {
        engine,
      });
      assert.equal(scan.invalidAt, 1);
      assert.equal(scan.nulAt, 3);
    }
  });
});

describe("public API", () => {
  it("hashLines32 gives the full hash of each line", () => {
    const lines = ["const π = Math.PI; // 円周率", "", "\t", "trailing  "];
    const hashes = hashLines32(bytesOf(lines.join("\n")));
    assert.deepEqual([...hashes], lines.map(lineHash32));
  });

  it("a scanner with hash: false still finds ends, the BOM, NULs and bad bytes", () => {
    const bytes = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      0x61,
      0x0a,
      0x00,
      0x0d,
      0x0a,
      0xc3,
    ]);
    for (const engine of ENGINES) {
      for (const [how, cuts] of chunkings(bytes.length)) {
        const scan = scanChunked(engine, bytes, cuts, false);
        assert.deepEqual(scan.ends, [5, 8, 9], how);
        assert.equal(scan.hasBom, true);
        assert.equal(scan.nulAt, 5);
        assert.equal(scan.invalidAt, 8);
      }
    }
  });

  it("scanners report which engine they are", () => {
    for (const engine of ENGINES) {
      assert.equal(createLineScanner({ engine }).engine, engine);
    }
  });

  it("a scanner refuses bytes after end()", () => {
    for (const engine of ENGINES) {
      const scanner = createLineScanner({ engine });
      scanner.end();
      assert.throws(() => scanner.push(bytesOf("x")), TypeError);
      assert.throws(() => scanner.end(), TypeError);
    }
  });

  it("refuses what is not bytes, and unknown engines", () => {
    assert.throws(
      () => hashLines("text" as unknown as Uint8Array),
      /TextEncoder/,
    );
    assert.throws(
      () => hashLines32([1, 2] as unknown as Uint8Array),
      TypeError,
    );
    assert.throws(
      () => scanLines(bytesOf("x"), { engine: "js" as "ts" }),
      /"wasm" or "ts"/,
    );
    assert.throws(
      () => createLineScanner({ engine: "asm" as "ts" }),
      TypeError,
    );
    // Not the empty line's hash: a number or a missing line is a mistake.
    for (const bad of [12, undefined, null, ["x"]]) {
      for (const fn of [lineHash, lineHash32]) {
        assert.throws(() => fn(bad as unknown as string), {
          name: "TypeError",
          message: /expected a string/,
        });
      }
    }
  });

  it("leaves the caller's bytes untouched", () => {
    const bytes = bytesOf("a\r\nb\n\uFEFF");
    const copy = bytes.slice();
    hashLines(bytes);
    scanLines(bytes, { engine: "ts" });
    assert.deepEqual(bytes, copy);
  });
});
