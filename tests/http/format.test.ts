import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatHashlines } from "../../src/anchor/format.ts";
import { formatAnswer, formatAnswerBytes } from "../../src/http/_format.ts";
import { createApp } from "../../src/http/app.ts";

/** The answer the route documents: `{ ok: true, ...view }`, as JSON.stringify writes it. */
function expectedAnswer(
  content: string,
  window: { offset?: number; limit?: number },
): string {
  return JSON.stringify({ ok: true, ...formatHashlines(content, window) });
}

const decoder = new TextDecoder();

/**
 * Every way the answer is built gives the same text: the string path, the
 * Wasm pass (where it loads) and the bytes of the string path.
 */
function answers(
  content: string,
  window: { offset?: number; limit?: number },
): string[] {
  return [
    formatAnswer(content, window),
    decoder.decode(formatAnswerBytes(content, window, "wasm")),
    decoder.decode(formatAnswerBytes(content, window, "ts")),
  ];
}

function assertAnswers(
  content: string,
  window: { offset?: number; limit?: number },
  expected: string,
  note = "",
): void {
  for (const got of answers(content, window)) {
    assert.equal(got, expected, note);
  }
}

function assertRefused(
  content: string,
  window: { offset?: number; limit?: number },
  check: (e: Error) => boolean,
): void {
  assert.throws(() => formatAnswer(content, window), check);
  assert.throws(() => formatAnswerBytes(content, window, "wasm"), check);
  assert.throws(() => formatAnswerBytes(content, window, "ts"), check);
}

describe("the /v1/format answer is the JSON of formatHashlines, byte for byte", () => {
  const everyByte = Array.from(
    { length: 0x80 },
    (_, b) => String.fromCharCode(b),
  ).join("");
  const contents = [
    "",
    "\n",
    "a",
    "a\n",
    "\uFEFFbom\r\nline\rwith lone CR\n",
    "\uFEFF",
    "\uFEFF\n",
    "x\n\ny",
    "\r\n\r\n",
    "ends in a lone CR\r",
    "😀 é ü\n漢字\n",
    "lone \ud800 surrogate\n",
    'quotes " and \\ backslashes \\n \\" and /slashes/\n',
    `every ASCII byte: ${everyByte}\nagain ${everyByte}`,
    "\u2028 line and \u2029 paragraph separators, \u007f, \u0000 NUL\n",
    "long " + "y".repeat(2500) + "\nshort\n",
    "exactly " + "z".repeat(1992) + "\n" + "é".repeat(2000) + "\n",
    "😀".repeat(2001) + "\n" + "é".repeat(1999) + '"\\\n',
    "\t".repeat(2100) + "\n",
    "a\\r\nb\r\n",
    "a\\\r\nb\\\\r\r\nc\\",
    "a\\\nb\\\\nc\\\\\n",
    "x".repeat(1000) + '"'.repeat(1200) + "\n",
    "under the cut, over it once escaped " + '"'.repeat(1900) + "\nend",
    Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n"),
    // Runs of plain text around the 16-byte steps, a byte to escape at each place.
    ...[15, 16, 17, 31, 32, 33].flatMap((n) => [
      "p".repeat(n) + "\n",
      "p".repeat(n) + '"' + "q".repeat(n) + "\r\n",
      "p".repeat(n) + "\u0001" + "é".repeat(n) + "\r",
    ]),
  ];
  const windows = [
    {},
    { offset: 2 },
    { offset: 1, limit: 1 },
    {
      offset: 3,
      limit: 20,
    },
    { offset: 50 },
    { offset: 51 },
  ];
  for (const content of contents) {
    for (const window of windows) {
      it(`${JSON.stringify(content.slice(0, 24))} ${JSON.stringify(window)}`, () => {
        let expected: string;
        try {
          expected = expectedAnswer(content, window);
        } catch (error) {
          assertRefused(
            content,
            window,
            (e: Error) =>
              e.constructor === (error as Error).constructor &&
              e.message === (error as Error).message,
          );
          return;
        }
        assertAnswers(content, window, expected);
      });
    }
  }

  // Backslashes next to "n" and "r", CRs, BOMs and characters JSON writes
  // as \u escapes are where a hand-made answer would part from JSON.stringify.
  const plain = [
    "a",
    "bc",
    " ",
    "\n",
    "\r",
    "\r\n",
    '"',
    "\\",
    "\\n",
    "\\r",
    "\\\\",
    "n",
    "r",
    "\t",
    "é",
    "😀",
    "\uFEFF",
    "\u2028",
  ];
  for (
    const [pool, pieces] of [
      ["plain", plain],
      ["with control characters", [...plain, "\u0000", "\u001f", "\b"]],
    ] as const
  ) {
    it(`agrees on 3000 random contents and windows (${pool})`, () => {
      let seed = 11;
      const next = (n: number): number => {
        seed = (seed + 0x6d2b79f5) | 0;
        let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) % n;
      };
      for (let k = 0; k < 3000; k++) {
        let content = "";
        for (let len = next(40); len > 0; len--) {
          content += pieces[next(pieces.length)];
        }
        const window = { offset: 1 + next(4), limit: 1 + next(6) };
        let expected: string;
        try {
          expected = expectedAnswer(content, window);
        } catch {
          assertRefused(content, window, (e) => e instanceof RangeError);
          continue;
        }
        assertAnswers(content, window, expected, JSON.stringify(content));
      }
    });
  }

  it("numbers lines across digit boundaries, deep windows and content over one engine chunk", () => {
    const many = Array.from({ length: 10_050 }, (_, i) => `row ${i} "${i}"`)
      .join("\n") + "\n";
    for (
      const window of [
        { offset: 8, limit: 4 },
        { offset: 98, limit: 4 },
        { offset: 995, limit: 10 },
        { offset: 9_990, limit: 20 },
        { offset: 10_050 },
        {},
      ]
    ) {
      assertAnswers(many, window, expectedAnswer(many, window));
    }
    // Over 1 MiB: the string path answers.
    const big = "b".repeat(700) + "\n" + "c".repeat(1 << 20) + "\nend\n";
    assertAnswers(
      big,
      { offset: 1, limit: 1 },
      expectedAnswer(big, { limit: 1 }),
    );
  });

  it("refuses a bad window as formatHashlines does", () => {
    for (const window of [{ offset: 0 }, { limit: 0 }, { offset: 1.5 }]) {
      assert.throws(() => formatHashlines("a\n", window), RangeError);
      assertRefused("a\n", window, (e) => e instanceof RangeError);
    }
  });
});

describe("POST /v1/format answers the same bytes however the request escaped the content", () => {
  const app = createApp({ root: "/nonexistent", stateDir: "/nonexistent" });
  const bodies = [
    '{"content":"a\\nb \\"q\\" \\\\n\\r\\n"}',
    '{"content":"\\u0061\\/b\\nc\\u000a"}',
    '{"content":"\\u00e9\\ud83d\\ude00\\n"}',
    '{"content":"x\\ny","content":"z\\\\n\\n"}',
    '{"content":"a\\n","meta":{"content":"b\\n"}}',
    '{"meta":{"content":"b\\n"},"content":"a\\nb\\n"}',
    '{ "offset" : 2 , "content" : "a\\nb\\nc" , "limit": 1 }',
    '{"content":"\uFEFFbom\\r\\n\u2028 sep\\n"}',
    '\uFEFF{"content":"after a BOM of the body\\n"}',
    '{"content":"' + "q".repeat(1990) +
    '\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\n"}',
  ];
  for (const body of bodies) {
    it(body.slice(0, 60), async () => {
      const parsed = JSON.parse(body.replace(/^\uFEFF/, ""));
      const expected = JSON.stringify({
        ok: true,
        ...formatHashlines(parsed.content, {
          offset: parsed.offset,
          limit: parsed.limit,
        }),
      });
      const res = await app.request("http://127.0.0.1/v1/format", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: new TextEncoder().encode(body),
      });
      assert.equal(res.status, 200);
      assert.equal(await res.text(), expected);
    });
  }
});

describe("POST /v1/format answers a plain content body as it answers the parsed content", () => {
  const app = createApp({ root: "/nonexistent", stateDir: "/nonexistent" });
  const post = (body: string | Uint8Array<ArrayBuffer>) =>
    app.request("http://127.0.0.1/v1/format", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? new TextEncoder().encode(body) : body,
    });
  /** JSON string body of `s` with every character written as a \u escape. */
  const allEscaped = (s: string): string =>
    Array.from(
      { length: s.length },
      (_, i) => "\\u" + s.charCodeAt(i).toString(16).padStart(4, "0"),
    ).join("");

  it("agrees on 500 random contents, escaped as JSON.stringify does and as \\u escapes", async () => {
    const pieces = [
      "a",
      " ",
      "\n",
      "\r",
      "\r\n",
      '"',
      "\\",
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
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let k = 0; k < 500; k++) {
      let content = "";
      for (let len = next(60); len > 0; len--) {
        content += pieces[next(pieces.length)];
      }
      const expected = JSON.stringify({
        ok: true,
        ...formatHashlines(content),
      });
      for (
        const body of [
          JSON.stringify({ content }),
          `{"content":"${allEscaped(content)}"}`,
        ]
      ) {
        const res = await post(body);
        assert.equal(res.status, 200, body);
        assert.equal(await res.text(), expected, body);
      }
    }
  });

  it("takes a lone surrogate escape as JSON.parse does", async () => {
    for (const content of ["a\ud800b\n", "\udc00\n", "x\ud83d"]) {
      const res = await post(`{"content":"${allEscaped(content)}"}`);
      assert.equal(res.status, 200);
      assert.equal(
        await res.text(),
        JSON.stringify({ ok: true, ...formatHashlines(content) }),
      );
    }
  });

  it("refuses what is not JSON or not UTF-8 with 400", async () => {
    const bodies: (string | Uint8Array<ArrayBuffer>)[] = [
      '{"content":"a\tb"}',
      '{"content":"a\\xb"}',
      '{"content":"a\\u12"}',
      '{"content":"a\\u12g4"}',
      '{"content":"a\\"}',
      '{"content":"a"b"}',
      '{"content":"a\\',
      new Uint8Array([
        ...new TextEncoder().encode('{"content":"a'),
        0xff,
        0x22,
        0x7d,
      ]),
      new Uint8Array([
        ...new TextEncoder().encode('{"content":"a'),
        0xed,
        0xa0,
        0x80,
        0x22,
        0x7d,
      ]),
      new Uint8Array([
        ...new TextEncoder().encode('{"content":"a'),
        0xc3,
        0x22,
        0x7d,
      ]),
    ];
    for (const body of bodies) {
      const res = await post(body);
      assert.equal(res.status, 400, String(body));
      const answer = await res.json();
      assert.equal(answer.error.code, "BAD_INPUT");
    }
  });

  it("reads a body with another field, or spaces, through the JSON parser", async () => {
    for (
      const body of [
        '{"content":"a\\nb\\n","offset":2}',
        '{"content":"a\\nb\\n"} ',
        '{"content":"a\\nb\\n","content":"c"}',
      ]
    ) {
      const parsed = JSON.parse(body);
      const res = await post(body);
      assert.equal(res.status, 200);
      assert.equal(
        await res.text(),
        JSON.stringify({
          ok: true,
          ...formatHashlines(parsed.content, { offset: parsed.offset }),
        }),
      );
    }
  });
});
