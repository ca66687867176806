import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Hono } from "hono";
import type { HttpEnv } from "../../../src/http/_env.ts";
import { jsonBody } from "../../../src/http/middleware/json_body.ts";

describe("jsonBody", () => {
  let seen: unknown = undefined;
  const app = new Hono<HttpEnv>().post("/", jsonBody(), (c) => {
    seen = c.var.body;
    return c.text("in");
  });

  it("parses UTF-8 JSON, multi-byte characters included", async () => {
    const res = await app.request("/", {
      method: "POST",
      body: new TextEncoder().encode('{"s":"é😀"}'),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(seen, { s: "é😀" });
  });

  it("keeps a U+FFFD the client sent, and a leading BOM is not part of the JSON", async () => {
    const res = await app.request("/", {
      method: "POST",
      body: new Uint8Array([
        0xef,
        0xbb,
        0xbf,
        ...new TextEncoder().encode('{"s":"a\uFFFDb"}'),
      ]),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(seen, { s: "a\uFFFDb" });
  });

  const bad: [string, Uint8Array<ArrayBuffer>, RegExp][] = [
    [
      "a lone continuation byte",
      new Uint8Array([0x7b, 0x22, 0x80, 0x22]),
      /offset 2/,
    ],
    [
      "a truncated sequence",
      new Uint8Array([0x22, 0xe2, 0x82, 0x22]),
      /offset 1/,
    ],
    [
      "an encoded surrogate",
      new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22]),
      /UTF-8/,
    ],
    [
      "an overlong encoding",
      new Uint8Array([0x22, 0xc0, 0xaf, 0x22]),
      /offset 1/,
    ],
    [
      "a byte that never starts a sequence",
      new Uint8Array([0x22, 0xf5, 0x80, 0x80, 0x80, 0x22]),
      /offset 1/,
    ],
    [
      "a bad byte after a U+FFFD that was sent",
      new Uint8Array([0x22, 0xef, 0xbf, 0xbd, 0x61, 0xff, 0x22]),
      /offset 5/,
    ],
    [
      "a bad byte at the end of a large body",
      new Uint8Array([
        ...new TextEncoder().encode(`{"s":"${"é".repeat(40_000)}`),
        0xe9,
        0x22,
        0x7d,
      ]),
      /offset 80006/,
    ],
    ["an empty body", new Uint8Array(), /empty/],
    [
      "text that is not JSON",
      new Uint8Array(new TextEncoder().encode("{nope")),
      /not valid JSON/,
    ],
  ];
  for (const [name, bytes, pattern] of bad) {
    it(`refuses ${name} with 400 BAD_INPUT, never a replacement character`, async () => {
      seen = undefined;
      const res = await app.request("/", { method: "POST", body: bytes });
      assert.equal(res.status, 400);
      const body = await res.json();
      assert.equal(body.error.code, "BAD_INPUT");
      assert.match(body.error.message, pattern);
      assert.equal(seen, undefined);
    });
  }
});
