/**
 * The server's memory across history cycles: `hashline serve` (the file
 * store in a temp state folder, 127.0.0.1, a free port) runs as a child
 * process with a 20 MB file of CRLF lines and no final newline in its root;
 * over HTTP, eight times, the file is read, every line deleted in one patch,
 * and the deletion undone through `POST /v1/history/{id}/undo`. Then every
 * history door answers (the list, one entry, the review page and the entry
 * page), the history state stays under three times the file, the last
 * deletion undoes byte for byte, and the server's peak resident memory
 * (`VmHWM`) stays under 700 MiB. The times of the doors are measured by
 * `bench/history_memory.ts`, not here.
 *
 * The server runs under Deno, as `npm start` runs it, whichever runtime
 * runs this file. Linux only: the peak is read from `/proc`.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { describe, it } from "node:test";
import { REPO_ROOT } from "../_spawn.ts";
import { cleanEnv } from "../cli/_cli.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { makeTree } from "../workspace/_helpers.ts";

const LINES = 400_000;
// The peak depends on when the garbage collector runs: between operations
// the server holds about 15 MiB, but the cycles may leave 320–430 MiB not
// yet collected, and a whole-diff show of the 20 MB entry and its page then
// add about 160 MiB on top (docs/history.md, "Memory of large changes").
const LIMIT_MIB = 700;
const DENO = join(REPO_ROOT, "node_modules", ".bin", "deno");
const CLI = join(REPO_ROOT, "src", "cli", "main.ts");

function skipReason(): string | false {
  if (process.platform !== "linux") {
    return "the server's peak memory is read from /proc/PID/status, which only Linux has";
  }
  if (!existsSync(DENO)) {
    return "no Deno in node_modules/.bin to run the server";
  }
  return false;
}

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? await sizeOf(p) : (await stat(p)).size;
  }
  return total;
}

async function peakMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = /VmHWM:\s+(\d+)\s*kB/.exec(status);
  assert.ok(kb, `no VmHWM line in /proc/${pid}/status`);
  return Number(kb[1]) / 1024;
}

function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (d: string) => {
      seen += d;
      const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(seen)?.[1];
      if (url) resolve(url);
    });
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (d: string) => (seen += d));
    child.once("exit", (code) => {
      reject(new Error(`hashline serve ended (exit ${code}): ${seen}`));
    });
  });
}

describe("history memory", () => {
  it(
    "a blob damaged after its entry was committed is refused, even right after the commit",
    { timeout: 60_000 },
    async () => {
      const t = await makeTree();
      try {
        const text = Array.from({ length: 2_000 }, (_, i) => `row ${i}`)
          .join("\n") + "\n";
        await writeFile(join(t.root, "a.txt"), text);
        const ws = openWorkspace(t.root, { stateDir: t.state });
        const first = (await ws.read("a.txt")).text.split("\n");
        const done = await ws.patch({
          files: [{
            path: "a.txt",
            ops: [{
              op: "delete",
              start: first[0].slice(0, first[0].indexOf("|")),
              end: first[1999].slice(0, first[1999].indexOf("|")),
            }],
          }],
        });
        const blobs = join(t.state, "history", "blobs");
        const [name] = await readdir(blobs);
        const blob = join(blobs, name);
        const bytes = await readFile(blob);
        bytes[0] ^= 1;
        await writeFile(blob, bytes);
        await assert.rejects(ws.entry(done.entry!), (e: Error) => {
          assert.equal((e as { code?: string }).code, "HISTORY");
          assert.match(e.message, /does not match its sha-256/);
          return true;
        });
        await assert.rejects(
          ws.undo(done.entry!),
          /does not match its sha-256/,
        );
        assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), "");
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    `eight delete-then-undo cycles of a 20 MB file over HTTP keep the server under ${LIMIT_MIB} MiB`,
    { timeout: 240_000, skip: skipReason() },
    async () => {
      const t = await makeTree();
      let child: ChildProcess | undefined;
      try {
        const line = (i: number) =>
          `line ${i} of a twenty megabyte file, padded out a bit ${i % 7}`;
        const text = Array.from({ length: LINES }, (_, i) => line(i))
          .join("\r\n");
        const original = Buffer.from(text, "utf8");
        assert.ok(original.length >= 20_000_000, String(original.length));
        await writeFile(join(t.root, "big.txt"), original);

        child = spawn(DENO, [
          "run",
          "-A",
          "-q",
          CLI,
          "serve",
          "--json",
          "--port",
          "0",
          "--root",
          t.root,
        ], {
          env: cleanEnv({ HASHLINE_STORE: t.state, NO_COLOR: "1" }),
          stdio: ["ignore", "pipe", "pipe"],
        });
        const url = await listening(child);
        const post = async (path: string, body: unknown) => {
          const r = await fetch(url + path, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          });
          const answer = await r.json();
          assert.equal(r.status, 200, `${path}: ${JSON.stringify(answer)}`);
          return answer;
        };
        const anchor = (view: { text: string }) =>
          view.text.slice(0, view.text.indexOf("|"));

        let lastDelete = "";
        for (let cycle = 0; cycle < 8; cycle++) {
          const first = await post("/v1/files/read", { path: "big.txt" });
          const last = await post("/v1/files/read", {
            path: "big.txt",
            offset: LINES,
            limit: 1,
          });
          assert.equal(first.totalLines, LINES);
          const done = await post("/v1/files/patch", {
            path: "big.txt",
            ops: [{ op: "delete", start: anchor(first), end: anchor(last) }],
          });
          assert.equal(done.files[0].removed, LINES);
          assert.match(done.entry, /^h_\d+$/);
          assert.equal((await stat(join(t.root, "big.txt"))).size, 0);
          lastDelete = done.entry;
          if (cycle < 7) {
            const undone = await post(`/v1/history/${lastDelete}/undo`, {});
            assert.equal(undone.undoOf, lastDelete);
            assert.equal(undone.files[0].added, LINES);
          }
        }

        const listed = await fetch(`${url}/v1/history?limit=20`);
        assert.equal(listed.status, 200);
        const list = await listed.json();
        assert.equal(list.entries.length, 15);
        assert.equal(list.entries[0].id, lastDelete);

        const shown = await fetch(`${url}/v1/history/${lastDelete}`);
        assert.equal(shown.status, 200);
        const entry = (await shown.json()).entry;
        assert.equal(entry.files[0].removed, LINES);
        assert.ok(entry.files[0].diff.includes(`\n-${line(LINES - 1)}`));

        const review = await fetch(`${url}/`);
        assert.equal(review.status, 200);
        assert.ok((await review.text()).includes(`/history/${lastDelete}`));

        const page = await fetch(`${url}/history/${lastDelete}`);
        assert.equal(page.status, 200);
        const html = await page.text();
        // The page shows the start of the diff and counts the rest.
        assert.ok(html.includes(line(0)), "the page shows the diff");
        assert.match(html, /[\d,]+ more diff lines not shown/);
        assert.ok(html.includes("Undo"), "the page offers the undo");

        const state = await sizeOf(join(t.state, "history"));
        assert.ok(
          state < 3 * original.length,
          `history state ${state} bytes for a ${original.length}-byte file`,
        );

        await post(`/v1/history/${lastDelete}/undo`, {});
        const back = await readFile(join(t.root, "big.txt"));
        assert.equal(back.length, original.length);
        assert.ok(original.equals(back), "the undo gives back the bytes");

        const peak = await peakMiB(child.pid!);
        assert.ok(
          peak < LIMIT_MIB,
          `the server peaked at ${peak.toFixed(0)} MiB (limit ${LIMIT_MIB})`,
        );
      } finally {
        if (child && child.exitCode === null && child.signalCode === null) {
          const gone = new Promise((resolve) => child!.once("exit", resolve));
          child.kill("SIGTERM");
          await gone;
        }
        await t.cleanup();
      }
    },
  );
});
