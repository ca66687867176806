import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { createMemoryStore } from "../../src/store/memory_store.ts";
import { MAX_SOURCE_BYTES } from "../../src/store/limits.ts";
import { call, errorOf } from "../http/_helpers.ts";

const DOUBLINGS = Array.from({ length: 8 }, () => ({
  oldString: "a",
  newString: "aa",
  replaceAll: true,
}));

describe("store edits stop at the 1 MiB source limit while they apply", () => {
  it("refuses eight doublings of 1 MiB with TOO_LARGE, keeping the base (store API)", async () => {
    const store = createMemoryStore();
    const base = await store.put("a".repeat(MAX_SOURCE_BYTES));
    await assert.rejects(
      store.edit(base.handle, DOUBLINGS),
      (e: Error & { code?: string }) => {
        assert.equal(e.code, "TOO_LARGE");
        assert.equal(e.name, "TooLargeError");
        assert.match(e.message, /^The edit|^Edit 1 of 8/);
        return true;
      },
    );
    assert.equal(await store.get(base.handle), "a".repeat(MAX_SOURCE_BYTES));
    await store.close();
  });

  it("answers 413 at the first edit over the limit (HTTP)", async () => {
    const store = createMemoryStore();
    const app = createApp({ store });
    const base = await store.put("a".repeat(MAX_SOURCE_BYTES));
    const res = await call(
      app,
      "POST",
      `/v1/revisions/${base.ref}/edits`,
      { edits: DOUBLINGS },
    );
    assert.equal(res.status, 413);
    const err = errorOf(res);
    assert.equal(err.code, "TOO_LARGE");
    assert.match(err.message, /^Edit 1 of 8 would make/);
    assert.equal(await store.get(base.ref), "a".repeat(MAX_SOURCE_BYTES));
    await store.close();
  });

  it("still applies edits that stay within the limit", async () => {
    const store = createMemoryStore();
    const base = await store.put("a".repeat(MAX_SOURCE_BYTES - 2) + "bc");
    const out = await store.edit(base.handle, [
      { oldString: "bc", newString: "xy" },
    ]);
    assert.equal(
      await store.get(out.ref),
      "a".repeat(MAX_SOURCE_BYTES - 2) + "xy",
    );
    await assert.rejects(
      store.edit(base.handle, [{ oldString: "bc", newString: "xyz" }]),
      { code: "TOO_LARGE" },
    );
    await store.close();
  });
});
