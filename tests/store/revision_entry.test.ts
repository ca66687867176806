/**
 * The store's lineage steps are `RevisionEntry` (docs/store.md), a name of
 * their own beside the workspace's history entries.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createMemoryStore, type RevisionEntry } from "../../mod.ts";

describe("RevisionEntry", () => {
  it("is what history(ref) lists, newest first", async () => {
    const store = createMemoryStore();
    const first = await store.put("one\n");
    const steps: RevisionEntry[] = await store.history(first.ref);
    assert.equal(steps.length, 1);
    assert.equal(steps[0].ref, first.ref);
    assert.equal(steps[0].parentRef, null);
    assert.equal(steps[0].op, "put");
  });
});
