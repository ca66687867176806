/**
 * `POST /v1/format` answers a `{"content":"…"}` body from its bytes
 * (`formatBodyAnswer`), without decoding or parsing it. Whenever that path
 * answers, the body is one the general path takes, and the answer is the
 * one the general path gives; a body spelled as JSON.stringify spells it
 * is always answered there; anything else is left to the general path.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatHashlines } from "../../src/anchor/format.ts";
import { formatBodyAnswer } from "../../src/http/_format.ts";
import { createApp } from "../../src/http/app.ts";

const encoder = new TextEncoder();
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const expected = (content: string): string =>
  JSON.stringify({ ok: true, ...formatHashlines(content) });

/**
 * When the byte path answers `body`, the body is UTF-8 JSON of the one shape
 * `{"content": string}`, and the answer is the documented one.
 */
function assertSound(body: Uint8Array, note: string): string | null {
  const got = formatBodyAnswer(body);
  if (got === null) return null;
  const value = JSON.parse(strict.decode(body));
  assert.deepEqual(Object.keys(value), ["content"], note);
  assert.equal(typeof value.content, "string", note);
  assert.equal(got, expected(value.content), note);
  return got;
}

/** JSON string body of `s` with every character written as a \u escape, in `hexCase`. */
const allEscaped = (s: string, upper = false): string =>
  Array.from({ length: s.length }, (_, i) => {
    const hex = s.charCodeAt(i).toString(16).padStart(4, "0");
    return "\\u" + (upper ? hex.toUpperCase() : hex);
  }).join("");

const PIECES = [
  "a",
  " ",
  "\n",
  "\r",
  "\r\n",
  "\r\r\n",
  '"',
  "\\",
  "\\n",
  "\\r\n",
  "/",
  "\t",
  "\b",
  "\f",
  "\u0000",
  "\u001f",
  "\u007f",
  "é",
  "\u0800",
  "😀",
  "\uFEFF",
  "\u2028",
  "x".repeat(20),
];

function randomContents(count: number, seed: number): string[] {
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    let content = "";
    for (let len = next(60); len > 0; len--) {
      content += PIECES[next(PIECES.length)];
    }
    out.push(content);
  }
  return out;
}

describe("the byte path of POST /v1/format", () => {
  it("answers every body JSON.stringify writes, as the parsed content is answered", () => {
    for (const content of randomContents(1500, 11)) {
      const body = encoder.encode(JSON.stringify({ content }));
      const got = assertSound(body, JSON.stringify(content));
      assert.notEqual(got, null, JSON.stringify(content));
    }
  });

  it("answers other spellings of the same content soundly (\\u escapes in either case, \\/, spaces)", () => {
    for (const content of randomContents(400, 5)) {
      const spellings = [
        `{"content":"${allEscaped(content)}"}`,
        `{"content":"${allEscaped(content, true)}"}`,
        JSON.stringify({ content }).replaceAll("/", "\\/"),
        ` \t\r\n{ "content" :\n"${allEscaped(content)}"\t}\r\n `,
      ];
      for (const body of spellings) {
        const got = assertSound(encoder.encode(body), body);
        assert.notEqual(got, null, body);
      }
    }
  });

  it("is sound on every prefix and on bodies with a byte changed", () => {
    const bodies = [
      JSON.stringify({ content: 'a\r\nb "q" \\n\ud83d\ude00\u0001é\n' }),
      `{"content":"${allEscaped("x\ud83d\ude00\r\ny")}"}`,
    ];
    const bytes = [0x00, 0x0a, 0x20, 0x22, 0x5c, 0x75, 0x7d, 0x80, 0xc3, 0xff];
    for (const text of bodies) {
      const body = encoder.encode(text);
      for (let n = 0; n <= body.length; n++) {
        assertSound(body.subarray(0, n), `prefix ${n} of ${text}`);
        for (const b of bytes) {
          const changed = body.slice();
          if (n < body.length) changed[n] = b;
          assertSound(changed, `byte ${n} set to ${b} in ${text}`);
        }
      }
    }
  });

  it("leaves other shapes, lone surrogates and what JSON.parse refuses to the general path", () => {
    const refused = [
      "",
      " ",
      "{}",
      '{"content":1}',
      '{"content":null}',
      '{"content":"a","offset":1}',
      '{"offset":1,"content":"a"}',
      '{"content":"a","content":"b"}',
      '{"\\u0063ontent":"a"}',
      '{"Content":"a"}',
      '["content","a"]',
      '"content"',
      '{"content":"a"}x',
      '{"content":"a"',
      '{"content":"a}',
      '{"content":"a\tb"}',
      '{"content":"a\\xb"}',
      '{"content":"a\\u12"}',
      '{"content":"a\\u12g4"}',
      '{"content":"\\ud800"}',
      '{"content":"\\ud800x"}',
      '{"content":"\\ud800\\u0041"}',
      '{"content":"\\udc00\\ud800"}',
      '\uFEFF{"content":"a"}',
    ];
    for (const body of refused) {
      assert.equal(formatBodyAnswer(encoder.encode(body)), null, body);
    }
    const badUtf8 = [
      [0xff],
      [0xc3],
      [0xed, 0xa0, 0x80],
      [0xe2, 0x82],
      [0x80],
    ];
    for (const bad of badUtf8) {
      const body = new Uint8Array([
        ...encoder.encode('{"content":"a'),
        ...bad,
        ...encoder.encode('"}'),
      ]);
      assert.equal(formatBodyAnswer(body), null, String(bad));
    }
  });

  it("gives the general path's answer for BOMs, CRLFs, long lines and more lines than one window", () => {
    const long = "y".repeat(1999);
    const contents = [
      "\uFEFF",
      "\uFEFF\n",
      "\uFEFFa\r\nb",
      "a\r",
      "a\r\r\n\r\nb\r",
      long + "\n" + long + "\r\n" + long + "y\n",
      long + "yy\n",
      long + '"\n',
      "é".repeat(1000) + "\n" + "é".repeat(1001),
      Array.from({ length: 2500 }, (_, i) => `line ${i}`).join("\n"),
      Array.from({ length: 2000 }, (_, i) => `line ${i}`).join("\r\n") + "\n",
    ];
    for (const content of contents) {
      for (
        const body of [
          JSON.stringify({ content }),
          `{"content":"${allEscaped(content)}"}`,
        ]
      ) {
        assertSound(encoder.encode(body), JSON.stringify(content.slice(0, 40)));
      }
      // A line over the limit in bytes might need the cut marker, which is
      // the general path's; every other body is answered here.
      const fits = content.split("\n").every((line) =>
        encoder.encode(line).length <= 2000
      );
      const got = formatBodyAnswer(encoder.encode(JSON.stringify({ content })));
      assert.equal(got !== null, fits, JSON.stringify(content.slice(0, 40)));
    }
  });

  it("answers over HTTP with the general path's status and headers (CORS included)", async () => {
    const app = createApp({
      root: "/nonexistent",
      stateDir: "/nonexistent",
      allowedOrigins: ["https://app.example"],
    });
    const post = (body: string) =>
      app.request("http://127.0.0.1/v1/format", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: "https://app.example",
        },
        body,
      });
    // The second body has a field more, so the general path answers it.
    const fast = await post('{"content":"x\\ny"}');
    const general = await post('{"content":"x\\ny","limit":2000}');
    assert.equal(fast.status, 200);
    assert.equal(fast.status, general.status);
    assert.deepEqual([...fast.headers], [...general.headers]);
    assert.equal(
      fast.headers.get("access-control-allow-origin"),
      "https://app.example",
    );
    assert.equal(await fast.text(), await general.text());
  });
});
