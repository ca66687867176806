/**
 * The one lazy loader: a module named relative to its caller loads on the
 * first call, is the same module a static import gives, and loads once.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as fnv from "../../src/hash/fnv.ts";
import { lazy } from "../../src/_internal/lazy.ts";

describe("lazy", () => {
  it("loads a module relative to the caller, once, as the static import does", {
    timeout: 30_000,
  }, async () => {
    const load = lazy<typeof import("../../src/hash/fnv.ts")>(
      import.meta.url,
      "../../src/hash/fnv.ts",
    );
    const first = await load();
    assert.equal(first.lineHash32, fnv.lineHash32);
    assert.equal(load(), load());
  });

  it("rejects, naming the module, when it does not exist", {
    timeout: 30_000,
  }, async () => {
    const load = lazy(import.meta.url, "./no_such_module.ts");
    await assert.rejects(load(), /no_such_module/);
  });
});
