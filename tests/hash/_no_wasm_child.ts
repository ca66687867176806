/** Child process: hides WebAssembly, then reports which engine hashLines falls back to. */
const g = globalThis as { WebAssembly?: unknown };
delete g.WebAssembly;
const { hashEngine, hashLines } = await import("../../src/hash/mod.ts");
const folds = hashLines(new TextEncoder().encode("x\ny\n"));
console.log(JSON.stringify({ engine: hashEngine(), folds: [...folds] }));
