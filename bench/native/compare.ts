/**
 * Line hashing against a native baseline, in one run: a hand-written AVX2 C
 * kernel (`bench/native/anchor_hash.c`, built here with the system C
 * compiler) and `hashLines` on the Wasm engine, on the same bytes as
 * `bench/hash_compare.ts`. The native answers are checked byte for byte
 * against `hashLines` before any figure is printed.
 *
 *   deno task bench:native                 128 MiB input, 7 runs each
 *   deno run -A bench/native/compare.ts --size=64 --reps=5
 *   node --import tsx bench/native/compare.ts
 *   bun bench/native/compare.ts
 *
 * Where no C compiler is found, or the CPU lacks AVX2, it says so and exits
 * with status 0. `CC` names another compiler. `--json` adds a last line
 * `RESULT {json}` with the figures (or the reason it skipped). Sizes are MiB; GB/s means
 * 10^9 bytes per second.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { foldHash, hashLines, scanLines } from "../../src/hash/mod.ts";
import { generateSource, option, runtime } from "../hash_compare.ts";
import { printSummary } from "../_summary.ts";

interface Timing {
  best: number;
  median: number;
}

interface NativeRun {
  lines: number;
  kernel: Timing;
  endToEnd: Timing;
  folds: Uint8Array;
}

const SOURCE = fileURLToPath(new URL("./anchor_hash.c", import.meta.url));
const PROBE = `#include <stdio.h>
int main(void) {
  __builtin_cpu_init();
  puts(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
       __builtin_cpu_supports("popcnt") ? "yes" : "no");
  return 0;
}
`;

function summarize(rates: number[]): Timing {
  const sorted = [...rates].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2
    ? sorted[mid]
    : (sorted[mid - 1] + sorted[mid]) / 2;
  return { best: sorted[sorted.length - 1], median };
}

function run(
  command: string,
  args: string[],
): { ok: boolean; out: string; err: string } {
  const r = spawnSync(command, args, { encoding: "utf8" });
  return {
    ok: r.error === undefined && r.status === 0,
    out: r.stdout ?? "",
    err: r.stderr ?? String(r.error ?? ""),
  };
}

/**
 * Builds the kernel into `dir`, or returns why it cannot run here.
 */
function build(dir: string): { exe: string } | { skip: string } {
  const cc = process.env.CC ?? "cc";
  if (!run(cc, ["--version"]).ok) {
    return { skip: `no C compiler (\`${cc}\`) found` };
  }
  const probeSrc = join(dir, "probe.c");
  const probe = join(dir, "probe");
  writeFileSync(probeSrc, PROBE);
  if (!run(cc, ["-O1", "-o", probe, probeSrc]).ok) {
    return { skip: `\`${cc}\` cannot build an x86-64 CPU check here` };
  }
  if (run(probe, []).out.trim() !== "yes") {
    return { skip: "this CPU lacks AVX2 (or BMI1, POPCNT)" };
  }
  const exe = join(dir, "anchor_hash");
  const flagSets = [
    ["-O3", "-march=native"],
    ["-O3", "-mavx2", "-mbmi", "-mpopcnt"],
  ];
  let last = "";
  for (const flags of flagSets) {
    const r = run(cc, [...flags, "-o", exe, SOURCE]);
    if (r.ok) return { exe };
    last = r.err;
  }
  throw new Error(
    `Cannot build the native kernel with \`${cc}\`:\n${last}`,
  );
}

function runNative(
  exe: string,
  dir: string,
  input: Uint8Array,
  reps: number,
): NativeRun {
  const inPath = join(dir, "input.txt");
  const outPath = join(dir, "folds.bin");
  writeFileSync(inPath, input);
  const r = run(exe, [inPath, outPath, String(reps)]);
  if (!r.ok) throw new Error(`The native kernel failed:\n${r.err}`);
  const fields = new Map(
    r.out.trim().split("\n").map((line) => {
      const [key, ...values] = line.trim().split(/\s+/);
      return [key, values.map(Number)];
    }),
  );
  const rates = (key: string): Timing =>
    summarize((fields.get(key) ?? []).map((s) => input.length / s / 1e9));
  return {
    lines: fields.get("lines")?.[0] ?? -1,
    kernel: rates("kernel"),
    endToEnd: rates("end_to_end"),
    folds: new Uint8Array(readFileSync(outPath)),
  };
}

/** Throws, naming the first line that differs, unless both are equal. */
function expectSame(what: string, native: Uint8Array, want: Uint8Array): void {
  if (native.length !== want.length) {
    throw new Error(
      `The native kernel found ${native.length} lines in ${what}, hashLines ${want.length}: the baseline is wrong, no figure printed.`,
    );
  }
  for (let i = 0; i < want.length; i++) {
    if (native[i] !== want[i]) {
      throw new Error(
        `The native kernel disagrees with hashLines on ${what} at line ${
          i + 1
        } (${native[i].toString(16)} vs ${
          want[i].toString(16)
        }): the baseline is wrong, no figure printed.`,
      );
    }
  }
}

/**
 * Content the bench input never has: CRLF and lone CR, a BOM, code points
 * of every UTF-8 length (and at the 1-, 2- and 3-feed limits), long lines,
 * runs of empty lines, a trailing CR; with `broken`, ill-formed sequences.
 */
function trickySource(size: number, broken: boolean): Uint8Array {
  let state = 0x2545f491;
  const next = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const pieces = [
    "a",
    "xyz",
    " ",
    "\t",
    "é",
    "ÿ",
    "Ā",
    "→",
    "円",
    "\uffff",
    "😀",
    "\u{10ffff}",
    "\r",
    "\r\n",
    "\n",
    "\n\n\n",
    "0123456789abcdef",
  ];
  const bad = [
    [0xff],
    [0xc0, 0x80],
    [0xe0, 0x80, 0x80],
    [0xed, 0xa0, 0x80],
    [0xf4, 0x90, 0x80, 0x80],
    [0xe2, 0x82],
    [0xf0, 0x9f, 0x98],
    [0x80],
  ];
  const encoder = new TextEncoder();
  const out: number[] = [0xef, 0xbb, 0xbf];
  while (out.length < size) {
    const r = next();
    if (r < 0.01) {
      const n = 1 + Math.floor(next() * 3000);
      for (let i = 0; i < n; i++) out.push(0x61 + (i % 26));
    } else if (broken && r < 0.05) {
      out.push(...bad[Math.floor(next() * bad.length)]);
    } else {
      out.push(
        ...encoder.encode(pieces[Math.floor(next() * pieces.length)]),
      );
    }
  }
  out.push(0x0d);
  return Uint8Array.from(out);
}

function gbps(t: number): string {
  return t.toFixed(3);
}

function main(): void {
  const size = option("size", 128) * 2 ** 20;
  const reps = Math.round(option("reps", 7));
  const dir = mkdtempSync(join(tmpdir(), "hashline-native-"));
  try {
    const built = build(dir);
    if ("skip" in built) {
      console.log(
        `bench:native skipped: ${built.skip}; the native baseline needs a C compiler and an x86-64 CPU with AVX2.`,
      );
      printSummary("native", { skipped: built.skip });
      return;
    }
    for (const broken of [false, true]) {
      const tricky = trickySource(1 << 20, broken);
      const native = runNative(built.exe, dir, tricky, 1).folds;
      const want = broken
        ? Uint8Array.from(scanLines(tricky, { engine: "ts" }).hashes, foldHash)
        : hashLines(tricky, { engine: "wasm" });
      expectSame(
        broken
          ? "ill-formed UTF-8 (against the twin)"
          : "CRLF, BOM and wide code points",
        native,
        want,
      );
    }

    const input = generateSource(size);
    const warm = input.subarray(0, 4 << 20);
    for (let i = 0; i < 3; i++) hashLines(warm, { engine: "wasm" });
    const reference = hashLines(input, { engine: "wasm" });
    const native = runNative(built.exe, dir, input, reps);
    expectSame("the bench input", native.folds, reference);

    const rates: number[] = [];
    for (let i = 0; i < reps; i++) {
      const start = performance.now();
      hashLines(input, { engine: "wasm" });
      rates.push(input.length / ((performance.now() - start) / 1000) / 1e9);
    }
    const wasm = summarize(rates);

    console.log(
      `hashline native bench: ${
        (size / 2 ** 20).toFixed(0)
      } MiB source-like input (bench/hash_compare.ts), ${reference.length} lines, ${runtime()}; native answers equal hashLines byte for byte`,
    );
    const rows: [string, Timing][] = [
      [
        "native AVX2 kernel alone (input in place, results reused)",
        native.kernel,
      ],
      ["native, copy in + kernel + results into fresh memory", native.endToEnd],
      ["hashLines, Wasm (copy into Wasm memory, fresh result)", wasm],
    ];
    const width = Math.max(...rows.map(([name]) => name.length));
    console.log(
      `${"".padEnd(width)}  best GB/s  median GB/s  Wasm is (best, median)`,
    );
    for (const [name, t] of rows) {
      const ratio = t === wasm
        ? ""
        : `${(wasm.best / t.best).toFixed(2)}× ${
          (wasm.median / t.median).toFixed(2)
        }×`;
      console.log(
        `${name.padEnd(width)}  ${gbps(t.best).padStart(9)}  ${
          gbps(t.median).padStart(11)
        }  ${ratio}`,
      );
    }
    console.log(
      `(${reps} runs each; native times are taken inside the C program around the named steps; Wasm times around each hashLines call)`,
    );
    printSummary("native", {
      runtime: runtime(),
      sizeMiB: size / 2 ** 20,
      lines: reference.length,
      reps,
      kernel: native.kernel,
      endToEnd: native.endToEnd,
      wasm,
    });
  } finally {
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  }
}

// A script, never imported: it runs the same way under Deno, Node and Bun.
main();
