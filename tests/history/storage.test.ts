/**
 * The history's storage and bounds: a delete and its undo of a 20 MB file,
 * repeated, keep the content once (in a blob beside a small log) and the
 * last deletion undoes byte for byte; retention is bounded by bytes as well
 * as by count, oldest first, the newest never, and pruning removes the
 * blobs no kept entry needs; listing the newest entry of a 200,000-entry
 * log reads what a 2,000-entry log's does, and one entry is found without
 * parsing the log.
 */
import assert from "node:assert/strict";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runCli } from "../_doors.ts";
import { createApp } from "../../src/http/app.ts";
import {
  type EntryRecord,
  frameRecord,
  HistoryLog,
  makeRecord,
} from "../../src/history/mod.ts";
import { openWorkspace, type Workspace } from "../../src/workspace/mod.ts";
import { call } from "../http/_helpers.ts";
import { connectHttp } from "../mcp/_client.ts";
import { makeTree, type Tree } from "../workspace/_helpers.ts";

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += await sizeOf(p);
    else total += (await stat(p)).size;
  }
  return total;
}

async function anchorOf(ws: Workspace, path: string, line: number) {
  const v = await ws.read(path, { offset: line, limit: 1 });
  return v.text.slice(0, v.text.indexOf("|"));
}

async function deleteAll(ws: Workspace, path: string, lines: number) {
  const start = await anchorOf(ws, path, 1);
  const end = await anchorOf(ws, path, lines);
  const r = await ws.patch({
    files: [{ path, ops: [{ op: "delete", start, end }] }],
  });
  return (r as { entry?: string }).entry;
}

describe("history storage and bounds", () => {
  const LINES = 400_000;

  describe("a 20 MB file deleted and undone eight times", () => {
    let big: Tree;
    let lastDelete = "";
    let fileBytes: Uint8Array;
    let stateBytes = 0;
    let logBytes = 0;
    let undone: Uint8Array;

    // Built once for the tests below (a failure here fails each of them):
    // eight deletions, each but the last undone, then the last undone too.
    before(async () => {
      big = await makeTree();
      const text = Array.from(
        { length: LINES },
        (_, i) =>
          `line ${i} of a twenty megabyte file, padded out a bit ${i % 7}`,
      ).join("\n") + "\n";
      fileBytes = new TextEncoder().encode(text);
      await writeFile(join(big.root, "big.txt"), fileBytes);
      const ws = openWorkspace(big.root, {
        stateDir: big.state,
        maxFileBytes: 64 * 1024 * 1024,
      });
      for (let cycle = 0; cycle < 8; cycle++) {
        await deleteAll(ws, "big.txt", LINES);
        assert.equal((await stat(join(big.root, "big.txt"))).size, 0);
        const [entry] = await ws.history({ limit: 1 });
        lastDelete = entry.id;
        if (cycle < 7) await ws.undo(entry.id);
      }
      stateBytes = await sizeOf(join(big.state, "history"));
      logBytes = (await stat(join(big.state, "history", "log"))).size;
      await ws.undo(lastDelete);
      undone = await readFile(join(big.root, "big.txt"));
    }, { timeout: 600_000 });
    after(() => big?.cleanup());

    it("eight delete-then-undo cycles of a 20 MB file keep its content once", {
      timeout: 10_000,
    }, () => {
      assert.ok(fileBytes.length >= 20_000_000, String(fileBytes.length));
      assert.ok(
        stateBytes < 3 * fileBytes.length,
        `history state ${stateBytes} bytes for a ${fileBytes.length}-byte file`,
      );
      assert.ok(logBytes < 64 * 1024, `the log itself holds ${logBytes} bytes`);
      assert.equal(undone.length, fileBytes.length);
      assert.ok(
        Buffer.from(fileBytes).equals(undone),
        "the undo gives back the bytes",
      );
    });

    // Each door's answer takes well under 2 s on an idle machine
    // (bench/history_bounds.ts measures them); the deadlines leave room for a
    // loaded CI machine running three runtimes side by side.
    it("after them, the library lists and shows in time", {
      timeout: 10_000,
    }, async () => {
      const ws = openWorkspace(big.root, { stateDir: big.state });
      const entries = await ws.history({ limit: 20 });
      assert.equal(entries.length, 16);
      const one = await ws.entry(lastDelete);
      assert.equal(one.files[0].removed, LINES);
    });

    it("after them, the CLI, HTTP and MCP answer in time", {
      timeout: 15_000,
    }, async () => {
      const { code, out } = await runCli(big, [
        "log",
        "--json",
        "--limit",
        "5",
      ]);
      assert.equal(code, 0);
      assert.equal(JSON.parse(out).entries.length, 5);
      const app = createApp({
        root: big.root,
        stateDir: big.state,
        tools: ["history"],
      });
      const r = await call(app, "GET", "/v1/history?limit=5");
      assert.equal(r.status, 200);
      assert.equal(r.body.entries.length, 5);
      const shown = await call(app, "GET", `/v1/history/${lastDelete}`);
      assert.equal(shown.status, 200);
      assert.equal(shown.body.entry.files[0].removed, LINES);
      const mcp = await connectHttp("http://localhost/mcp", { app });
      try {
        const listed = await mcp.tool("edit_history", { limit: 5 });
        assert.equal(listed.isError, false);
      } finally {
        await mcp.close();
      }
    });
  });

  it(
    "retention by bytes: oldest out first, newest kept, unneeded blobs removed",
    {
      timeout: 30_000,
    },
    async () => {
      const t = await makeTree();
      try {
        const log = new HistoryLog(t.state, {
          maxBytes: 64 * 1024,
          blobGraceMs: 0,
        });
        const blobs = join(t.state, "history", "blobs");
        const ids: string[] = [];
        for (let i = 0; i < 8; i++) {
          const content = `${i}`.repeat(20_000) + "\n";
          const record = await log.begin((id) =>
            makeRecord({
              id,
              session: "s",
              door: "library",
              summary: `write ${i}`,
              files: [{
                path: "f.txt",
                added: 1,
                removed: 0,
                hunks: [{
                  at: 1,
                  newAt: 1,
                  old: "",
                  new: content,
                  hashes: [0],
                  before: null,
                  after: null,
                }],
              }],
            })
          );
          await log.append(record);
          ids.push(record.id);
        }
        const kept = log.list({ limit: 100 }).records.map((r) => r.id);
        assert.ok(kept.length < 8 && kept.length >= 1, kept.join(","));
        assert.equal(kept[0], ids[7]);
        assert.deepEqual(kept, ids.slice(8 - kept.length).reverse());
        assert.equal((await readdir(blobs)).length, kept.length);
        assert.ok(await sizeOf(join(t.state, "history")) <= 64 * 1024 + 4096);
        const newest = await log.get(ids[7]);
        assert.equal(newest!.files[0].hunks[0].new, "7".repeat(20_000) + "\n");
        assert.equal(await log.get(ids[0]), undefined);
        // A newest entry larger than the whole budget is still kept.
        const huge = await log.begin((id) =>
          makeRecord({
            id,
            session: "s",
            door: "library",
            summary: "huge",
            files: [{
              path: "g.txt",
              added: 1,
              removed: 0,
              hunks: [{
                at: 1,
                newAt: 1,
                old: "",
                new: "x".repeat(100_000) + "\n",
                hashes: [0],
                before: null,
                after: null,
              }],
            }],
          })
        );
        await log.append(huge);
        assert.deepEqual(log.list({ limit: 100 }).records.map((r) => r.id), [
          huge.id,
        ]);
        assert.equal((await readdir(blobs)).length, 1);
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    "listing the newest entry reads as much of a 200,000-entry log as of a 2,000-entry one",
    {
      timeout: 60_000,
    },
    async () => {
      const t = await makeTree();
      try {
        const cost = async (n: number) => {
          const state = join(t.state, String(n));
          await mkdir(join(state, "history"), { recursive: true });
          const lines: string[] = [];
          for (let i = 1; i <= n; i++) {
            const r: EntryRecord = {
              id: `h_${i}`,
              time: "2026-01-01T00:00:00.000Z",
              session: "s",
              door: "cli",
              summary: `Edit ${i}`,
              files: [{
                path: `f${i % 10}.txt`,
                added: 1,
                removed: 1,
                hunks: [{
                  at: 3,
                  newAt: 3,
                  old: "old line\n",
                  new: `new line ${i}\n`,
                  hashes: [i],
                  before: "two\n",
                  after: "four\n",
                }],
              }],
            };
            lines.push(frameRecord(r));
          }
          await writeFile(join(state, "history", "log"), lines.join(""));
          // Every entry kept (the default keeps the newest 10,000).
          const log = new HistoryLog(state, { limit: n });
          const listed = log.list({ limit: 1 });
          assert.deepEqual(listed.records.map((r) => r.id), [`h_${n}`]);
          const listing = { ...log.stats };
          const mid = `h_${Math.floor(n / 2)}`;
          const before = { ...log.stats };
          assert.equal((await log.get(mid))!.id, mid);
          return {
            listing,
            show: log.stats.parsed - before.parsed,
          };
        };
        const small = await cost(2_000);
        const large = await cost(200_000);
        assert.equal(large.listing.bytesRead, small.listing.bytesRead);
        assert.equal(large.listing.parsed, small.listing.parsed);
        assert.ok(large.listing.parsed < 200, String(large.listing.parsed));
        // One entry: a binary search, a few hundred lines at most.
        assert.ok(large.show < 1_000, `${large.show} lines parsed to show one`);
      } finally {
        await t.cleanup();
      }
    },
  );
});

import { Buffer } from "node:buffer";
