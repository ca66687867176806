/**
 * `@hashline/kit/patch` (src/patch/mod.ts) is the format, parse, apply,
 * validate and rebase of docs/patch-format.md, with their schemas, the
 * dialect detector and the read record with its views; the
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
      "FileViews",
      "InsertAfterOpSchema",
      "InsertBeforeOpSchema",
      "LineMemory",
      "MAX_VIEWS",
      "MoveOpSchema",
      "PatchEntriesSchema",
      "PatchOpSchema",
      "PatchSchema",
      "PrependOpSchema",
      "ReplaceOpSchema",
      "applyHashlineEdit",
      "applyPatch",
      "detectDialect",
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
