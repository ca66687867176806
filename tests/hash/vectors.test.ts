import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  foldHash,
  hashLines,
  hashLines32,
  hex2,
  lineHash,
  lineHash32,
  scanLines,
} from "../../src/hash/mod.ts";
import { chunkings, ENGINES, scanChunked } from "./_engines.ts";

interface Vectors {
  lines: { line: string; fnv1a32: string; hash: string }[];
  files: { name: string; content: string; view: string[] }[];
}

const vectors: Vectors = JSON.parse(
  readFileSync(new URL("../../spec/vectors.json", import.meta.url), "utf8"),
);
const encoder = new TextEncoder();
const hex8 = (h: number) => h.toString(16).padStart(8, "0");

describe("line vectors", () => {
  for (const v of vectors.lines) {
    const name = JSON.stringify(
      v.line.length > 24 ? `${v.line.slice(0, 24)}…` : v.line,
    );
    it(`string hash of ${name}`, () => {
      assert.equal(hex8(lineHash32(v.line)), v.fnv1a32);
      assert.equal(lineHash(v.line), v.hash);
      assert.equal(hex2(foldHash(lineHash32(v.line))), v.hash);
    });
    for (const engine of ENGINES) {
      it(`${engine} scanner on ${name}, every chunking and terminator`, () => {
        for (const end of ["\n", "\r\n", ""]) {
          if (v.line === "" && end === "") continue;
          const bytes = encoder.encode(v.line + end);
          for (const [how, cuts] of chunkings(bytes.length)) {
            const scan = scanChunked(engine, bytes, cuts);
            assert.deepEqual(
              scan.hashes.map(hex8),
              [v.fnv1a32],
              `${how}, end ${JSON.stringify(end)}`,
            );
            assert.deepEqual(scan.ends, [bytes.length]);
          }
        }
      });
    }
  }
});

describe("file vectors", () => {
  for (const file of vectors.files) {
    const bytes = encoder.encode(file.content);
    const expected = file.view.map((row) =>
      row.slice(row.indexOf(":") + 1, row.indexOf("|"))
    );
    for (const engine of ENGINES) {
      it(`${engine} scanner on "${file.name}", every chunking`, () => {
        for (const [how, cuts] of chunkings(bytes.length)) {
          const scan = scanChunked(engine, bytes, cuts);
          assert.deepEqual(
            scan.hashes.map((h) => hex2(foldHash(h))),
            expected,
            how,
          );
          assert.equal(scan.invalidAt, -1);
        }
      });
      it(`scanLines (${engine}) on "${file.name}"`, () => {
        const scan = scanLines(bytes, { engine });
        assert.deepEqual(
          [...scan.hashes].map((h) => hex2(foldHash(h))),
          expected,
        );
      });
    }
    for (const engine of ENGINES) {
      it(`hashLines and hashLines32 (${engine}) on "${file.name}"`, () => {
        assert.deepEqual([...hashLines(bytes, { engine })].map(hex2), expected);
        assert.deepEqual(
          [...hashLines32(bytes, { engine })].map((h) => hex2(foldHash(h))),
          expected,
        );
      });
    }
  }
});
