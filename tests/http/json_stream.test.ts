/**
 * `jsonPieces` (src/http/_json_stream.ts): a JSON answer whose long
 * strings go out in pieces is, byte for byte, what `JSON.stringify` gives,
 * whatever the strings hold; and `GET /v1/history/{id}` answers a large
 * entry through it.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { jsonPieces } from "../../src/http/_json_stream.ts";
import { createApp } from "../../src/http/app.ts";
import { makeTree } from "../workspace/_helpers.ts";

const SMALL = { longer: 8, piece: 3 };

async function bodyOf(
  res: Response,
): Promise<{ text: string; pieces: number }> {
  const reader = res.body!.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return {
    text: new TextDecoder("utf-8", { fatal: true }).decode(bytes),
    pieces: chunks.length,
  };
}

describe("JSON answers with long strings sent in pieces", () => {
  const cases: [string, unknown][] = [
    ["plain text", { ok: true, diff: "-a\n-b\n-c\n-d\n-e" }],
    ["quotes, backslashes and control characters", {
      d: 'say "hi"\\ there\t\u0001\n\r end',
    }],
    ["a surrogate pair at every offset", {
      a: "x😀y😀😀z😀".repeat(5),
      b: "😀".repeat(9),
    }],
    ["several long strings, nested, in an array", {
      entry: {
        files: [{ diff: "é".repeat(20) }, { diff: "short" }, {
          diff: "\u2028\u2029".repeat(7),
        }],
      },
      tail: 1,
    }],
    ["no long string", { ok: true, n: 3, s: "abc" }],
    ["a long string that is the whole body", "0123456789abcdef"],
  ];
  for (const [name, body] of cases) {
    it(`gives the bytes JSON.stringify gives: ${name}`, async () => {
      const res = jsonPieces(body, 200, SMALL);
      assert.equal(
        res.headers.get("content-type"),
        "application/json; charset=utf-8",
      );
      const { text } = await bodyOf(res);
      assert.equal(text, JSON.stringify(body));
    });
  }

  it("sends a long string in several pieces, and a short body in one", async () => {
    const long = await bodyOf(jsonPieces({ d: "a".repeat(30) }, 200, SMALL));
    assert.ok(long.pieces >= 10, `${long.pieces} pieces`);
    const short = await bodyOf(jsonPieces({ d: "abc" }, 200, SMALL));
    assert.equal(short.pieces, 1);
  });

  it("keeps the status", () => {
    const res = jsonPieces({ ok: false }, 409, SMALL);
    assert.equal(res.status, 409);
  });

  it("answers GET /v1/history/{id} of a 2 MB deletion with its whole diff", async () => {
    const t = await makeTree();
    const lines = Array.from(
      { length: 80_000 },
      (_, i) => `line ${i} "quoted" é`,
    );
    await writeFile(join(t.root, "big.txt"), lines.join("\n") + "\n");
    const app = createApp({ root: t.root, stateDir: t.state });
    const post = async (path: string, body: unknown) => {
      const r = await app.fetch(
        new Request("http://127.0.0.1" + path, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            host: "127.0.0.1",
            "hashline-session": "s1",
          },
          body: JSON.stringify(body),
        }),
      );
      return await r.json();
    };
    const anchor = (view: { text: string }) =>
      view.text.slice(0, view.text.indexOf("|"));
    const first = await post("/v1/files/read", { path: "big.txt" });
    const last = await post("/v1/files/read", {
      path: "big.txt",
      offset: 80_000,
      limit: 1,
    });
    const done = await post("/v1/files/patch", {
      path: "big.txt",
      ops: [{ op: "delete", start: anchor(first), end: anchor(last) }],
    });
    assert.equal(done.ok, true, JSON.stringify(done).slice(0, 300));
    const res = await app.fetch(
      new Request(`http://127.0.0.1/v1/history/${done.entry}`, {
        headers: { host: "127.0.0.1" },
      }),
    );
    assert.equal(res.status, 200);
    const { text, pieces } = await bodyOf(res);
    assert.ok(pieces > 1, `${pieces} pieces`);
    const body = JSON.parse(text);
    assert.equal(body.ok, true);
    const diff: string = body.entry.files[0].diff;
    assert.equal(
      diff.split("\n").filter((l) => l.startsWith("-line ")).length,
      80_000,
    );
    assert.ok(diff.includes('-line 79999 "quoted" é'));
  });
});
