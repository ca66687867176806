import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  holderLine,
  hostTag,
  local,
  parseHolder,
  provablyDead,
  tempId,
} from "../../src/lock/holder.ts";
import process from "node:process";

/**
 * Why this machine cannot tell a dead local holder (its boot id or PID
 * namespace is not knowable here), or false.
 */
function hostUnknown(): string | false {
  const me = parseHolder(holderLine("probe"));
  if (me?.boot === null) return "the boot id is not knowable here";
  if (me?.ns === null) return "the PID namespace is not knowable here";
  return false;
}

const UNKNOWN_HOST = hostUnknown();

describe("lock/holder", () => {
  it("a lock names this process as PID TOKEN BOOT NS, and parses back to it", () => {
    const line = holderLine("tok");
    assert.match(line, /^\d+ tok \S+ \S+\n$/);
    const holder = parseHolder(line);
    assert.ok(holder);
    assert.equal(holder.pid, process.pid);
    assert.equal(local(holder), true);
    assert.equal(provablyDead(holder), false, "this process is alive");
  });

  it("parses the old two-field form and refuses lines that name no holder", () => {
    assert.deepEqual(parseHolder("123 tok"), {
      pid: 123,
      boot: null,
      ns: null,
    });
    assert.equal(parseHolder(""), null);
    assert.equal(parseHolder("abc tok\n"), null);
    assert.equal(parseHolder("12"), null);
  });

  it("a holder from another boot or PID namespace is neither local nor provably dead", () => {
    const other = { pid: 999_999_999, boot: "another-boot", ns: "pid:[1]" };
    assert.equal(local(other), false);
    assert.equal(provablyDead(other), false, "only the lease can free it");
  });

  it("a local holder whose pid no longer runs is provably dead", {
    skip: UNKNOWN_HOST,
  }, () => {
    const me = parseHolder(holderLine("t"));
    assert.ok(me);
    assert.equal(provablyDead({ ...me, pid: 2 ** 22 + 12345 }), true);
  });

  it("temporary ids start with the host tag and differ each time", () => {
    const a = tempId();
    const b = tempId();
    assert.match(a, /^[0-9a-f]{16}$/);
    assert.equal(a.slice(0, 8), hostTag());
    assert.notEqual(a, b);
  });
});
