/**
 * The one errno map gives every operating-system failure the contract names
 * a stable code whose status is a 4xx, or a 5xx only for a condition of the
 * machine (full disk, no file handles left).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mapFsError } from "../../src/_internal/errno.ts";
import { HashlineError } from "../../src/errors.ts";
import { STATUS } from "../../src/http/_status.ts";

function osError(code: string): Error {
  return Object.assign(new Error(`${code}: failed`), { code });
}

describe("OS failures become typed refusals", () => {
  const cases: [string, string, number][] = [
    ["EACCES", "PERMISSION", 403],
    ["EPERM", "PERMISSION", 403],
    ["EROFS", "PERMISSION", 403],
    ["ENOSPC", "NO_SPACE", 507],
    ["EDQUOT", "NO_SPACE", 507],
    ["EMFILE", "BUSY", 503],
    ["ENFILE", "BUSY", 503],
    ["ENAMETOOLONG", "BAD_PATH", 400],
    ["EISDIR", "NOT_A_FILE", 400],
    ["ENOENT", "NOT_FOUND", 404],
  ];
  for (const [errno, code, status] of cases) {
    it(`${errno} → ${code} (${status})`, () => {
      const mapped = mapFsError(osError(errno), 'Cannot write "a.txt"');
      assert.ok(mapped instanceof HashlineError);
      assert.equal(mapped.code, code);
      assert.equal(STATUS[mapped.code], status);
      assert.match(mapped.message, /^Cannot write "a\.txt": /);
    });
  }

  it("leaves an unknown errno as it was", () => {
    const e = osError("EWHATEVER");
    assert.equal(mapFsError(e, "x"), e);
  });
});
