/**
 * The review page's Undo form refuses an oversized body while it streams:
 * a 64 MiB chunked POST to a real `hashline serve` process is answered 413
 * long before the server's memory grows by 100 MiB (its peak resident set,
 * read from /proc, where there is one).
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { collect, startTs } from "../_spawn.ts";
import { tempTree } from "../http/_helpers.ts";
import { createApp } from "../../src/http/app.ts";

const CLI = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const REPO = fileURLToPath(new URL("../../", import.meta.url));
const MiB = 1024 ** 2;

/** Peak resident set of a process in bytes, or null without /proc. */
async function peakRss(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status);
    return kb ? Number(kb[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** POSTs `total` bytes chunked, stopping at the answer; the status and bytes sent by then. */
function chunkedPost(
  url: string,
  total: number,
): Promise<{ status: number; sent: number; body: string }> {
  return new Promise((resolve, reject) => {
    const chunk = new Uint8Array(MiB).fill(0x61);
    let sent = 0;
    let stopped = false;
    const source = new Readable({
      read() {
        if (stopped || sent >= total) return this.push(null);
        sent += chunk.length;
        this.push(chunk);
      },
    });
    const req = request(url, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "transfer-encoding": "chunked",
      },
    });
    req.on("response", (res) => {
      stopped = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => {
        req.destroy();
        source.destroy();
        resolve({ status: res.statusCode ?? 0, sent, body });
      });
    });
    req.on("error", (error: Error & { code?: string }) => {
      if (stopped) return;
      // A server may also hang up on the rest of a refused body before its
      // answer is read: refused all the same, as long as it came early.
      if (error.code === "EPIPE" || error.code === "ECONNRESET") {
        stopped = true;
        source.destroy();
        resolve({ status: -1, sent, body: error.code });
      } else reject(error);
    });
    source.pipe(req);
  });
}

describe("review page body limit", () => {
  it("answers 408 to a form that does not arrive within the body deadline", {
    timeout: 30_000,
  }, async () => {
    const tree = await tempTree({ "a.txt": "one\n" });
    try {
      const app = createApp({
        root: tree.dir,
        stateDir: join(tree.dir, ".hashline"),
        bodyTimeoutMs: 200,
      });
      // One chunk, then nothing: the client never finishes its form.
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("csrf="));
        },
      });
      const res = await app.request("http://127.0.0.1/history/h_1/undo", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
        // @ts-ignore: Node's Request needs it for a stream body; others ignore it.
        duplex: "half",
      });
      assert.equal(res.status, 408);
      assert.match(await res.text(), /did not arrive within 200 ms/);
    } finally {
      await tree.cleanup();
    }
  });

  it("refuses a 64 MiB chunked form before the server grows by 100 MiB", {
    timeout: 120_000,
  }, async () => {
    const tree = await tempTree({ "a.txt": "one\n" });
    const child = startTs(CLI, [
      "serve",
      "--port",
      "0",
      "--root",
      tree.dir,
    ], {
      cwd: REPO,
      env: { HASHLINE_STORE: join(tree.dir, ".hashline") },
    });
    const done = collect(child);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let seen = "";
        child.stdout?.on("data", (d: Buffer | string) => {
          seen += String(d);
          const m = /hashline listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(
            seen,
          );
          if (m) resolve(m[1]);
        });
        child.on(
          "close",
          () => reject(new Error(`server exited before listening: ${seen}`)),
        );
      });
      // Warm the page up so the measure is of the body, not of loading code.
      const warm = await fetch(`${url}/`);
      assert.equal(warm.status, 200);
      await warm.text();
      const before = await peakRss(child.pid!);
      const answer = await chunkedPost(`${url}/history/h_1/undo`, 64 * MiB);
      if (answer.status === -1) {
        assert.ok(answer.sent < 64 * MiB, `${answer.sent} bytes sent`);
      } else {
        assert.equal(answer.status, 413, answer.body);
        assert.match(answer.body, /over the limit of 16384 bytes/);
      }
      const after = await peakRss(child.pid!);
      if (before !== null && after !== null) {
        assert.ok(
          after - before < 100 * MiB,
          `server grew by ${((after - before) / MiB).toFixed(1)} MiB`,
        );
      }
      // A small form is still read (and judged: no CSRF token here).
      const small = await fetch(`${url}/history/h_1/undo`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "csrf=00",
      });
      assert.equal(small.status, 403);
      await small.text();
    } finally {
      child.kill("SIGTERM");
      await done;
      await tree.cleanup();
    }
  });
});

import type { Buffer } from "node:buffer";
