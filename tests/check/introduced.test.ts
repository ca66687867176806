import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RawError } from "../../src/check/_engine.ts";
import { introducedErrors } from "../../src/check/_introduced.ts";

const err = (
  line: number,
  token = "}",
  kind: RawError["kind"] = "missing",
): RawError => ({ line, column: 1, kind, token });

describe("which errors an edit introduced (pure)", () => {
  const before = ["a", "b(", "c", "d", "e", "f", "g", "h"];

  it("a new file, or a clean old one: every error is new", () => {
    assert.deepEqual(
      introducedErrors(null, { lines: ["x"], errors: [err(1)] }),
      [err(1)],
    );
    assert.deepEqual(
      introducedErrors({ lines: ["x"], errors: [] }, {
        lines: ["y"],
        errors: [err(1)],
      }),
      [err(1)],
    );
  });

  it("an old error that moved with inserted lines is old", () => {
    const after = ["new", "new", ...before];
    assert.deepEqual(
      introducedErrors({ lines: before, errors: [err(2, ")")] }, {
        lines: after,
        errors: [err(4, ")")],
      }),
      [],
    );
  });

  it("an old error whose neighbour the edit changed is old (its own line is untouched)", () => {
    const after = ["a", "b(", "C!", "d", "e", "f", "g", "h"];
    assert.deepEqual(
      introducedErrors({ lines: before, errors: [err(2, ")")] }, {
        lines: after,
        errors: [err(2, ")")],
      }),
      [],
    );
  });

  it("a second error of the same kind is new: each old error excuses one", () => {
    const after = ["a", "b(", "c", "d(", "e", "f", "g", "h"];
    assert.deepEqual(
      introducedErrors(
        { lines: before, errors: [err(2, ")")] },
        { lines: after, errors: [err(2, ")"), err(4, ")")] },
      ),
      [err(4, ")")],
    );
  });

  it("an old error the parser now reports elsewhere, far from the edit, is old", () => {
    const after = ["a", "b(", "c", "d", "e", "f", "g", "H"];
    assert.deepEqual(
      introducedErrors({ lines: before, errors: [err(3)] }, {
        lines: after,
        errors: [err(4)],
      }),
      [],
    );
    // …but not when it lands on the changed lines.
    assert.deepEqual(
      introducedErrors({ lines: before, errors: [err(3)] }, {
        lines: after,
        errors: [err(8)],
      }),
      [err(8)],
    );
  });
});
