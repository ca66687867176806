/**
 * `@hashline/kit/patch` (src/patch/mod.ts) is the format, parse, apply,
 * validate and rebase of docs/patch-format.md, with their schemas; the
 * planners and matchers behind them stay internal.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as patch from "../../src/patch/mod.ts";

describe("the ./patch entry point", () => {
  it("exports what docs/patch-format.md describes, and no internals", () => {
    assert.deepEqual(Object.keys(patch).sort(), [
      "AppendOpSchema",
      "DeleteOpSchema",
      "EntryOpSchema",
      "FileEntrySchema",
      "FilePatchSchema",
      "InsertAfterOpSchema",
      "InsertBeforeOpSchema",
      "LineMemory",
      "MoveOpSchema",
      "PatchEntriesSchema",
      "PatchOpSchema",
      "PatchSchema",
      "PrependOpSchema",
      "ReplaceOpSchema",
      "applyHashlineEdit",
      "applyPatch",
      "editContent",
      "formatPatchText",
      "freshAnchors",
      "gapProblems",
      "parsePatch",
      "rebaseOps",
      "validateOps",
    ]);
  });
});
