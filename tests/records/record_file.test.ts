import assert from "node:assert/strict";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { LineMemory } from "../../src/patch/memory.ts";
import {
  decodeRecord,
  encodeRecord,
  unwrapRecord,
  wrapRecord,
} from "../../src/records/record_file.ts";
import { SessionRecords } from "../../src/records/records.ts";

function memory(): LineMemory {
  const mem = new LineMemory();
  mem.see(1, [0x11111111, 0x22222222, 0x33333333]);
  mem.see(10, [0xdeadbeef]);
  mem.lineCount = 12;
  return mem;
}

describe("records/record_file", () => {
  it("a record decodes to the lines and hashes it was made from", () => {
    const bytes = encodeRecord("/root/a.ts", memory());
    const back = decodeRecord(bytes, "/root/a.ts");
    assert.ok(back);
    assert.equal(back.hash32(2), 0x22222222);
    assert.equal(back.hash32(10), 0xdeadbeef);
    assert.equal(back.hash32(4), undefined, "never read");
    assert.equal(back.lineCount, 12);
  });

  it("a record of another path, or cut bytes, decodes to null", () => {
    const bytes = encodeRecord("/root/a.ts", memory());
    assert.equal(decodeRecord(bytes, "/root/b.ts"), null);
    assert.equal(
      decodeRecord(bytes.subarray(0, bytes.length - 4), "/root/a.ts"),
      null,
    );
    assert.equal(decodeRecord(new Uint8Array(3), "/root/a.ts"), null);
  });

  it("the file header's checksum refuses any flipped byte and any cut", () => {
    const body = encodeRecord("/root/a.ts", memory());
    const file = wrapRecord(body, 7);
    const ok = unwrapRecord(file);
    assert.ok(ok);
    assert.equal(ok.generation, 7);
    assert.deepEqual(ok.body, body);
    for (let i = 0; i < file.length; i++) {
      if (i >= 4 && i < 8) continue; // the generation is not covered
      const flipped = file.slice();
      flipped[i] ^= 0x40;
      assert.equal(unwrapRecord(flipped), null, `byte ${i} flipped`);
    }
    assert.equal(unwrapRecord(file.subarray(0, file.length - 1)), null);
  });
});

describe("records/records", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "hl-records-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it(
    "a record saved by one instance is read by another on the same folder (another process)",
    {
      timeout: 10_000,
    },
    async () => {
      await new SessionRecords(dir).put("alice", "/root/a.ts", memory());
      const other = new SessionRecords(dir);
      const mem = await other.get("alice", "/root/a.ts");
      assert.ok(mem);
      assert.equal(mem.hash32(3), 0x33333333);
      assert.ok((await readdir(dir)).length > 0, "saved on disk");
    },
  );

  it("sessions never see each other's reads", { timeout: 10_000 }, async () => {
    const records = new SessionRecords(dir);
    await records.put("alice", "/root/a.ts", memory());
    assert.equal(await records.get("bob", "/root/a.ts"), undefined);
    assert.equal(
      await new SessionRecords(dir).get("bob", "/root/a.ts"),
      undefined,
    );
  });

  it("a memory-only store keeps records for its own life only", {
    timeout: 10_000,
  }, async () => {
    const records = new SessionRecords(null);
    await records.put("s", "/root/a.ts", memory());
    assert.equal((await records.get("s", "/root/a.ts"))?.hash32(1), 0x11111111);
    assert.equal(
      await new SessionRecords(null).get("s", "/root/a.ts"),
      undefined,
    );
  });
});
