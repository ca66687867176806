/**
 * Line-hashing throughput, three ways, in one run: `hashLines` on the Wasm
 * engine (copy into Wasm memory included), on the TypeScript twin, and MD5
 * per line through node:crypto (the way pydantic-ai-backend anchors lines).
 *
 *   deno task bench                       256 MiB input
 *   deno run -A bench/hash_compare.ts --size=64 --md5-size=8 --reps=5
 *
 * `--json` adds a last line `RESULT {json}` with the figures. Sizes are MiB; GB/s means 10^9 bytes per second of wall time.
 *
 * @module
 */
import { createHash } from "node:crypto";
import process from "node:process";
import { isMainModule } from "../src/_runtime/env.ts";
import { hashLines } from "../src/hash/mod.ts";
import { printSummary } from "./_summary.ts";

/**
 * Deterministic source-like text: indented code lines of varied length
 * (about 34 bytes on average, a tenth of them empty), comments and strings,
 * a little non-ASCII, now and then a long literal.
 *
 * @param size Bytes to produce (the last line may be cut short).
 * @param seed Any 32-bit number.
 * @returns The text as UTF-8 bytes.
 */
export function generateSource(size: number, seed = 0x9e3779b9): Uint8Array {
  let state = seed >>> 0 || 1;
  const next = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T =>
    items[Math.floor(next() * items.length)];
  const names = [
    "value",
    "result",
    "index",
    "buffer",
    "options",
    "config",
    "error",
    "line",
    "offset",
    "handle",
    "store",
    "entry",
    "path",
    "items",
    "count",
    "request",
    "response",
    "context",
    "hash",
    "anchor",
  ];
  const calls = [
    "push",
    "get",
    "set",
    "map",
    "filter",
    "slice",
    "join",
    "replace",
    "toString",
    "resolve",
    "parse",
    "encode",
    "has",
    "write",
    "read",
  ];
  const words = [
    "the",
    "line",
    "hash",
    "is",
    "kept",
    "when",
    "file",
    "changes",
    "read",
    "before",
    "edit",
    "returns",
    "null",
    "if",
    "missing",
    "cache",
    "window",
    "offset",
    "bytes",
    "first",
  ];
  const accents = ["é", "ü", "→", "λ", "—", "円周率", "😀", "ñ", "α", "…"];
  const id = () =>
    pick(names) +
    (next() < 0.3 ? pick(["Id", "Map", "List", "Count", "At"]) : "");
  const expr = (): string => {
    const r = next();
    if (r < 0.25) return `${id()}.${pick(calls)}(${next() < 0.5 ? id() : ""})`;
    if (r < 0.45) return String(Math.floor(next() * 10000));
    if (r < 0.6) {
      return `"${pick(words)} ${pick(words)}${
        next() < 0.04 ? " " + pick(accents) : ""
      }"`;
    }
    if (r < 0.8) {
      return `${id()} ${pick(["+", "-", "*", "??", "||", "&&"])} ${id()}`;
    }
    return `${id()}[${id()}]`;
  };
  const comment = () => {
    let text = "";
    const n = 2 + Math.floor(next() * 9);
    for (let i = 0; i < n; i++) text += (i ? " " : "") + pick(words);
    return next() < 0.06 ? `${text} ${pick(accents)}` : text;
  };
  const encoder = new TextEncoder();
  const out = new Uint8Array(size);
  let at = 0;
  let depth = 0;
  while (at < size) {
    const pad = "  ".repeat(depth);
    const r = next();
    let line: string;
    if (r < 0.11) line = "";
    else if (r < 0.2 && depth > 0) {
      depth--;
      line = "  ".repeat(depth) + pick(["}", "}", "});", "},", "];"]);
    } else if (r < 0.3 && depth < 6) {
      line = pad + pick([
        `if (${expr()}) {`,
        `for (const ${id()} of ${id()}) {`,
        `function ${id()}(${id()}, ${id()}) {`,
        `} else {`,
        `const ${id()} = {`,
      ]);
      depth++;
    } else if (r < 0.4) line = `${pad}// ${comment()}`;
    else if (r < 0.47) line = `${pad}return ${expr()};`;
    else if (r < 0.5) {
      line = `import { ${id()}, ${id()} } from "./${pick(names)}.ts";`;
    } else if (r < 0.75) line = `${pad}const ${id()} = ${expr()};`;
    else if (r < 0.93) {
      line = `${pad}${id()}.${pick(calls)}(${expr()}, ${expr()});`;
    } else if (r < 0.995) line = `${pad}${id()}: ${expr()},`;
    else line = `${pad}const data = "${"x".repeat(Math.floor(next() * 400))}";`;
    const bytes = encoder.encode(line + "\n");
    const n = Math.min(bytes.length, size - at);
    out.set(bytes.subarray(0, n), at);
    at += n;
  }
  return out;
}

/**
 * One MD5 per line (node:crypto), its first byte as the line's anchor.
 *
 * @param bytes UTF-8 content.
 * @returns One byte per line.
 */
export function md5Lines(bytes: Uint8Array): Uint8Array {
  const anchors: number[] = [];
  let at = 0;
  while (at < bytes.length) {
    let nl = bytes.indexOf(0x0a, at);
    if (nl < 0) nl = bytes.length;
    const end = nl > at && bytes[nl - 1] === 0x0d ? nl - 1 : nl;
    anchors.push(createHash("md5").update(bytes.subarray(at, end)).digest()[0]);
    at = nl + 1;
  }
  return Uint8Array.from(anchors);
}

interface Timing {
  best: number;
  median: number;
}

function measure(
  bytes: Uint8Array,
  reps: number,
  run: (b: Uint8Array) => unknown,
): Timing {
  const rates: number[] = [];
  for (let i = 0; i < reps; i++) {
    const start = performance.now();
    run(bytes);
    const seconds = (performance.now() - start) / 1000;
    rates.push(bytes.length / seconds / 1e9);
  }
  rates.sort((a, b) => a - b);
  const mid = rates.length >> 1;
  const median = rates.length % 2
    ? rates[mid]
    : (rates[mid - 1] + rates[mid]) / 2;
  return { best: rates[rates.length - 1], median };
}

/** A positive `--name=N` flag of the command line, or the fallback. */
export function option(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = arg === undefined
    ? fallback
    : Number(arg.slice(name.length + 3));
  if (!(value > 0)) {
    throw new RangeError(`--${name} must be a positive number, got ${arg}.`);
  }
  return value;
}

/** The runtime and its engine version, for the report's first line. */
export function runtime(): string {
  const g = globalThis as {
    Deno?: { version: { deno: string; v8: string } };
    Bun?: { version: string };
  };
  if (g.Deno) return `deno ${g.Deno.version.deno} (V8 ${g.Deno.version.v8})`;
  if (g.Bun) return `bun ${g.Bun.version}`;
  return `node ${process.versions.node} (V8 ${process.versions.v8})`;
}

function main(): void {
  const size = option("size", 256) * 2 ** 20;
  const md5Size = Math.min(size, option("md5-size", 16) * 2 ** 20);
  const reps = Math.round(option("reps", 7));
  const input = generateSource(size);
  let lines = 0;
  let wide = 0;
  let start = 0;
  let high = false;
  for (let i = 0; i < input.length; i++) {
    const b = input[i];
    if (b === 0x0a) {
      lines++;
      if (high) wide++;
      high = false;
      start = i + 1;
    } else if (b >= 0x80) high = true;
  }
  if (start < input.length) lines++;
  console.log(
    `hashline bench: ${
      (size / 2 ** 20).toFixed(0)
    } MiB source-like input, ${lines} lines ` +
      `(${(size / lines).toFixed(1)} bytes each on average, ${
        (100 * wide / lines).toFixed(1)
      }% with non-ASCII), ` +
      `${runtime()}`,
  );

  const warm = input.subarray(0, 4 << 20);
  for (let i = 0; i < 3; i++) {
    hashLines(warm, { engine: "wasm" });
    hashLines(warm, { engine: "ts" });
  }
  md5Lines(warm.subarray(0, 1 << 20));

  const wasmOut = hashLines(input, { engine: "wasm" });
  const tsOut = hashLines(input, { engine: "ts" });
  if (
    wasmOut.length !== lines || tsOut.length !== lines ||
    wasmOut.some((v, i) => v !== tsOut[i])
  ) {
    throw new Error(
      "The Wasm engine and the TypeScript twin disagree on this input.",
    );
  }

  const wasm = measure(input, reps, (b) => hashLines(b, { engine: "wasm" }));
  const ts = measure(
    input,
    Math.max(1, Math.ceil(reps / 2)),
    (b) => hashLines(b, { engine: "ts" }),
  );
  const md5 = measure(input.subarray(0, md5Size), 3, md5Lines);

  const rows: [string, Timing][] = [
    ["hashLines, Wasm (SIMD)", wasm],
    ["hashLines, TypeScript twin", ts],
    [`MD5 per line, node:crypto (first ${md5Size / 2 ** 20} MiB)`, md5],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(
    `${"".padEnd(width)}  best GB/s  median GB/s  Wasm is (best, median)`,
  );
  for (const [name, t] of rows) {
    const ratio = `${(wasm.best / t.best).toFixed(2)}× ${
      (wasm.median / t.median).toFixed(2)
    }×`;
    console.log(
      `${name.padEnd(width)}  ${t.best.toFixed(3).padStart(9)}  ${
        t.median.toFixed(3).padStart(11)
      }  ${t === wasm ? "" : ratio}`,
    );
  }
  console.log(
    `(best of ${reps} Wasm runs, ${
      Math.max(1, Math.ceil(reps / 2))
    } TypeScript runs, 3 MD5 runs; each run hashes the whole input into a fresh result)`,
  );
  // What both engines pay on top of hashing: the copy of the results into
  // the fresh array they return (on some hosts, first writes into fresh
  // memory dominate it).
  let copyMs = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    wasmOut.slice();
    copyMs = Math.min(copyMs, performance.now() - start);
  }
  const wasmMs = input.length / wasm.best / 1e6;
  console.log(
    `of a best Wasm run's ${wasmMs.toFixed(0)} ms, ${
      copyMs.toFixed(1)
    } ms is copying its ${lines} results into a fresh array`,
  );
  printSummary("hash", {
    runtime: runtime(),
    sizeMiB: size / 2 ** 20,
    md5MiB: md5Size / 2 ** 20,
    lines,
    reps,
    wasm,
    ts,
    md5,
    copyMs,
  });
}

if (isMainModule(import.meta)) main();
