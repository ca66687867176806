/**
 * `deno bench bench/hash.bench.ts`: the three ways of anchoring lines on the
 * same 2 MiB source-like input (bench/hash_compare.ts runs the big
 * comparison, 256 MiB).
 *
 * @module
 */
import { hashLines } from "../src/hash/mod.ts";
import { generateSource, md5Lines } from "./hash_compare.ts";

const input = generateSource(2 << 20);

Deno.bench({
  name: "hashLines, Wasm",
  group: "hash",
  baseline: true,
  fn: () => {
    hashLines(input, { engine: "wasm" });
  },
});

Deno.bench({
  name: "hashLines, TypeScript twin",
  group: "hash",
  fn: () => {
    hashLines(input, { engine: "ts" });
  },
});

Deno.bench({
  name: "MD5 per line, node:crypto",
  group: "hash",
  fn: () => {
    md5Lines(input);
  },
});
