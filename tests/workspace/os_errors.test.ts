/**
 * The one errno map: every operating-system failure the workspace can meet
 * becomes a typed refusal with its stable code, and no message carries a
 * descriptor path (`/proc/self/fd/N/…`).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mapFsError } from "../../src/_internal/errno.ts";
import { HashlineError } from "../../src/errors.ts";
import { statusOf } from "../../src/http/_status.ts";

function osError(code: string): Error {
  return Object.assign(
    new Error(`${code}: failed, open '/proc/self/fd/23/.a.txt.hashline-lock'`),
    { code },
  );
}

describe("mapFsError", () => {
  const table: [string, string, number][] = [
    ["ENOSPC", "NO_SPACE", 507],
    ["EDQUOT", "NO_SPACE", 507],
    ["EROFS", "PERMISSION", 403],
    ["EACCES", "PERMISSION", 403],
    ["EPERM", "PERMISSION", 403],
    ["EMFILE", "BUSY", 503],
    ["ENFILE", "BUSY", 503],
    ["ENAMETOOLONG", "BAD_PATH", 400],
  ];
  for (const [errno, code, status] of table) {
    it(`${errno} → ${code} (${status})`, () => {
      const e = mapFsError(osError(errno), 'Cannot write "a.txt"');
      assert.ok(e instanceof HashlineError);
      assert.equal(e.code, code);
      assert.equal(statusOf(e.code), status);
      assert.match(e.message, /^Cannot write "a\.txt": /);
      assert.doesNotMatch(e.message, /\/proc\/self\/fd/);
    });
  }

  it("takes descriptor paths out of errors it does not know", () => {
    const e = mapFsError(osError("EIO"), "Cannot write") as Error;
    assert.doesNotMatch(e.message, /\/proc\/self\/fd/);
    assert.match(e.message, /\.a\.txt\.hashline-lock/);
  });
});
