import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { hashEngine } from "../../src/hash/mod.ts";
import { runTs } from "../_spawn.ts";

const CHILD = fileURLToPath(new URL("./_engine_child.ts", import.meta.url));
const NO_WASM = fileURLToPath(
  new URL("./_no_wasm_child.ts", import.meta.url),
);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("hashEngine", () => {
  it('is "wasm" here', () => {
    assert.equal(hashEngine(), "wasm");
  });

  it('is "ts" in a process run with HASHLINE_ENGINE=ts, with the same anchors', async () => {
    const [ts, wasm] = await Promise.all([
      runTs(CHILD, [], { cwd: ROOT, env: { HASHLINE_ENGINE: "ts" } }),
      runTs(CHILD, [], { cwd: ROOT, env: { HASHLINE_ENGINE: "" } }),
    ]);
    assert.equal(ts.code, 0, ts.stderr);
    assert.equal(wasm.code, 0, wasm.stderr);
    assert.deepEqual(JSON.parse(ts.stdout), {
      engine: "ts",
      folds: [0x26, 0x4a],
    });
    assert.deepEqual(JSON.parse(wasm.stdout), {
      engine: "wasm",
      folds: [0x26, 0x4a],
    });
  });

  it('falls back to "ts" where WebAssembly is missing', async () => {
    const run = await runTs(NO_WASM, [], { cwd: ROOT });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), {
      engine: "ts",
      folds: [0x26, 0x4a],
    });
  });
});
