import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { lineHash32 } from "../../src/hash/mod.ts";
import { scanChunked } from "./_engines.ts";
import { createLineCounter } from "../../src/hash/_count.ts";
import { concatBytes } from "../../src/_internal/bytes.ts";

const RUNS = 200;
const encoder = new TextEncoder();

/** Lines of text as docs/reads.md ("Lines") splits them. */
function splitLines(text: string): string[] {
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const parts = text.split("\n");
  const last = parts.pop() as string;
  const lines = parts.map((
    part,
  ) => (part.endsWith("\r") ? part.slice(0, -1) : part));
  if (last !== "") lines.push(last);
  return lines;
}

const textPiece = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 40 }),
  },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "\n",
      "\r\n",
      "\r",
      "\u0000",
      "😀",
      "e\u0301",
      "\u0301",
      "円周率",
      "\uFEFF",
      "\t",
    ),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 65537, max: 70000 }).map((n) => "x".repeat(n)),
  },
);

/** Valid UTF-8 text, sometimes with a BOM in front. */
const textArb = fc.tuple(fc.boolean(), fc.array(textPiece, { maxLength: 30 }))
  .map(([bom, pieces]) => (bom ? "\uFEFF" : "") + pieces.join(""));

/** Any bytes: text pieces mixed with raw (often ill-formed) byte runs. */
const bytesArb = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: textPiece.map((t) => encoder.encode(t)) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 12 }) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        [0xc3],
        [0xe2, 0x82],
        [0xf0, 0x9f, 0x98],
        [0xed, 0xa0, 0x80],
        [0xc0, 0xaf],
        [0xf4, 0x90, 0x80, 0x80],
        [0xef, 0xbb, 0xbf],
        [0x80, 0xbf],
        [0x0d],
      ).map((b) => new Uint8Array(b)),
    },
  ),
  { maxLength: 30 },
).map(concatBytes);

/** Sorted distinct cut offsets inside `length`, drawn from fractions. */
const cutsArb = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), {
  maxLength: 12,
});
function cutsFor(length: number, fractions: number[]): number[] {
  const cuts = new Set(
    fractions.map((f) => Math.floor(f * length)).filter((c) =>
      c > 0 && c < length
    ),
  );
  return [...cuts].sort((a, b) => a - b);
}

describe("engines agree", () => {
  it("on any bytes, however they are chunked", () => {
    fc.assert(
      fc.property(
        bytesArb,
        cutsArb,
        cutsArb,
        fc.boolean(),
        (bytes, fa, fb, hash) => {
          const reference = scanChunked("ts", bytes, [], hash);
          assert.deepEqual(
            scanChunked("ts", bytes, cutsFor(bytes.length, fa), hash),
            reference,
          );
          assert.deepEqual(
            scanChunked("wasm", bytes, cutsFor(bytes.length, fb), hash),
            reference,
          );
          assert.deepEqual(scanChunked("wasm", bytes, [], hash), reference);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("with the string hash of each line, on valid UTF-8", () => {
    fc.assert(
      fc.property(textArb, cutsArb, (text, fractions) => {
        const bytes = encoder.encode(text);
        const expected = splitLines(text).map(lineHash32);
        for (const engine of ["wasm", "ts"] as const) {
          const scan = scanChunked(
            engine,
            bytes,
            cutsFor(bytes.length, fractions),
          );
          assert.deepEqual(scan.hashes, expected, engine);
          assert.equal(scan.invalidAt, -1);
          assert.equal(scan.hasBom, text.startsWith("\uFEFF"));
          assert.equal(scan.nulAt, bytes.indexOf(0));
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe("line counting without hashing", () => {
  const runArb = fc.tuple(
    bytesArb,
    fc.constantFrom("\n".repeat(70), "a\r\n".repeat(30), "é\n".repeat(25)),
  ).map(([bytes, run]) => {
    const more = encoder.encode(run);
    const out = new Uint8Array(bytes.length + more.length);
    out.set(more.subarray(0, more.length >> 1));
    out.set(bytes, more.length >> 1);
    out.set(more.subarray(more.length >> 1), (more.length >> 1) + bytes.length);
    return out;
  });

  it("agrees with the scanner on lines, ill-formed bytes and checkpoints", () => {
    fc.assert(
      fc.property(
        fc.oneof(bytesArb, runArb),
        cutsArb,
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom("wasm", "ts" as const),
        (body, fractions, every, engine) => {
          const head = encoder.encode("head line\n");
          const bytes = new Uint8Array(head.length + body.length);
          bytes.set(head);
          bytes.set(body, head.length);
          const scan = scanChunked("ts", bytes, [], false);
          const expected = scan.ends.filter((_, i) =>
            (i + 1) % every === 0 && i > 0
          );

          const counter = createLineCounter(
            engine as "wasm" | "ts",
            head.length,
            1,
            every,
          );
          let at = 0;
          for (const cut of [...cutsFor(body.length, fractions), body.length]) {
            counter.buffer.set(body.subarray(at, cut));
            counter.count(cut - at);
            at = cut;
          }
          counter.end();
          assert.equal(counter.lines, scan.linesSeen);
          assert.equal(counter.invalidAt, scan.invalidAt);
          assert.deepEqual(counter.checkpoints, expected);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
