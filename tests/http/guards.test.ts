import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createApp, type HashlineApp } from "../../src/http/app.ts";
import { lineHash } from "../../src/hash/fnv.ts";
import { bytes, tempTree } from "./_helpers.ts";

// What a web page can send without a CORS preflight: a cross-site POST with
// a "simple" content type, carrying a patch that appends to a workspace file.
const ATTACKS: [string, Record<string, string>][] = [
  ["a foreign Origin", {
    origin: "http://evil.example",
    "content-type": "application/json",
  }],
  ["Content-Type text/plain", { "content-type": "text/plain" }],
  ["Content-Type text/plain from a foreign Origin", {
    origin: "http://evil.example",
    "content-type": "text/plain;charset=UTF-8",
  }],
  ["a form post", { "content-type": "application/x-www-form-urlencoded" }],
  ["a rebinding Host", {
    host: "evil.example:8787",
    "content-type": "application/json",
  }],
];

const FILE = "victim.sh";
const CONTENT = "#!/bin/sh\necho hello\n";

function attackBody(): string {
  return JSON.stringify({
    patch: `@@ ${FILE}\n+ 2:${lineHash("echo hello")}\n~echo pwned`,
  });
}

/** Reads the file first with the default session, as a local agent would have. */
async function primed(app: HashlineApp, base: string): Promise<void> {
  const res = await app.fetch(
    new Request(`${base}/v1/files/read`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: FILE }),
    }),
  );
  assert.equal(res.status, 200);
  await res.body?.cancel();
}

describe("the app refuses what a web page can send, under any server", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let app: HashlineApp;
  before(async () => {
    tree = await tempTree({ [FILE]: CONTENT });
    app = createApp({ root: tree.dir, stateDir: join(tree.dir, ".hashline") });
    await primed(app, "http://127.0.0.1");
  });
  after(() => tree.cleanup());

  for (const [name, headers] of ATTACKS) {
    it(`app.fetch refuses ${name} and changes no byte`, async () => {
      const before = await bytes(join(tree.dir, FILE));
      const res = await app.fetch(
        new Request("http://127.0.0.1:8787/v1/files/patch", {
          method: "POST",
          headers,
          body: attackBody(),
        }),
      );
      assert.ok(res.status === 403 || res.status === 415, `${res.status}`);
      const body = await res.json();
      assert.equal(body.ok, false);
      assert.equal(
        body.error.code,
        res.status === 403 ? "FORBIDDEN" : "UNSUPPORTED_MEDIA_TYPE",
      );
      assert.deepEqual(await bytes(join(tree.dir, FILE)), before);
    });
  }

  it("a local JSON request with the same patch still works (the guard is not a wall)", async () => {
    const res = await app.fetch(
      new Request("http://127.0.0.1:8787/v1/files/patch", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          patch: `@@ ${FILE}\n+ 2:${lineHash("echo hello")}\n~echo local`,
          dryRun: true,
        }),
      }),
    );
    assert.equal(res.status, 200);
    assert.equal((await res.json()).dryRun, true);
  });
});

const deno = (globalThis as {
  Deno?: {
    serve(
      options: {
        hostname: string;
        port: number;
        onListen?: (addr: { port: number }) => void;
      },
      handler: (r: Request) => Response | Promise<Response>,
    ): { addr: { port: number }; shutdown(): Promise<void> };
  };
}).Deno;

// Deno.serve is what `deno serve` runs; Bun and Node have no Deno global, so
// there the app.fetch cases above are the whole check.
describe("createApp().fetch served by Deno.serve", { skip: !deno }, () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let server: { addr: { port: number }; shutdown(): Promise<void> };
  let base: string;
  before(async () => {
    tree = await tempTree({ [FILE]: CONTENT });
    const app = createApp({
      root: tree.dir,
      stateDir: join(tree.dir, ".hashline"),
    });
    server = deno!.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      app.fetch,
    );
    base = `http://127.0.0.1:${server.addr.port}`;
    await primed(app, base);
  });
  after(async () => {
    await server?.shutdown();
    await tree.cleanup();
  });

  for (const [name, headers] of ATTACKS) {
    // fetch itself sets Host from the URL, so a rebinding Host cannot be forged here.
    if ("host" in headers) continue;
    it(`refuses ${name} over the network and changes no byte`, async () => {
      const before = await bytes(join(tree.dir, FILE));
      const res = await fetch(`${base}/v1/files/patch`, {
        method: "POST",
        headers,
        body: attackBody(),
      });
      assert.ok(res.status === 403 || res.status === 415, `${res.status}`);
      assert.equal((await res.json()).ok, false);
      assert.deepEqual(await bytes(join(tree.dir, FILE)), before);
    });
  }
});

describe("read windows are capped over HTTP", () => {
  const app = createApp({ root: "/nonexistent", stateDir: "/nonexistent" });
  const cases: [string, unknown][] = [
    ["/v1/format", { content: "a\n", limit: 10_001 }],
    ["/v1/files/read", { path: "a.txt", limit: 10_001 }],
  ];
  for (const [path, body] of cases) {
    it(`${path} refuses limit 10001 with 400 naming "limit"`, async () => {
      const res = await app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 400);
      const json = await res.json();
      assert.equal(json.error.code, "BAD_INPUT");
      assert.match(json.error.message, /"limit"/);
    });
  }

  it("/v1/format takes limit 10000", async () => {
    const res = await app.request("/v1/format", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "a\n", limit: 10_000 }),
    });
    assert.equal(res.status, 200);
  });
});

describe("strict UTF-8 bodies", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  before(async () => {
    tree = await tempTree({ "a.txt": "one\n" });
  });
  after(() => tree.cleanup());

  it("a patch body with an invalid byte is 400 BAD_INPUT and writes no U+FFFD", async () => {
    const app = createApp({
      root: tree.dir,
      stateDir: join(tree.dir, ".hashline"),
    });
    const read = await app.request("/v1/files/read", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "a.txt" }),
    });
    assert.equal(read.status, 200);
    const before = await bytes(join(tree.dir, "a.txt"));
    const text = JSON.stringify({
      patch: `@@ a.txt\n= 1:${lineHash("one")}\n~X`,
    });
    const at = text.indexOf("~X") + 1;
    const body = new TextEncoder().encode(text);
    body[at] = 0xff;
    const res = await app.request("/v1/files/patch", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    assert.equal(res.status, 400);
    const json = await res.json();
    assert.equal(json.error.code, "BAD_INPUT");
    assert.match(json.error.message, new RegExp(`offset ${at}`));
    assert.deepEqual(await bytes(join(tree.dir, "a.txt")), before);
  });
});

describe("createApp options", () => {
  it("refuses an unknown edit format, a bad origin, a bad token or limits", () => {
    const bad: [string, Record<string, unknown>, RegExp][] = [
      [
        "editFormat sed",
        { editFormat: "sed" },
        /editFormat must be "hashline" or "str_replace", got "sed"/,
      ],
      [
        "an origin that is not one",
        { allowedOrigins: ["*"] },
        /allowedOrigins/,
      ],
      ["an empty token", { token: "" }, /token/],
      ["a token with a space", { token: "a b" }, /token/],
      ["a body limit of 0", { maxBodyBytes: 0 }, /maxBodyBytes/],
      ["a body deadline of 0", { bodyTimeoutMs: 0 }, /bodyTimeoutMs/],
      ["an unsafe session", { session: "../x" }, /session/],
    ];
    for (const [name, options, pattern] of bad) {
      assert.throws(() => createApp(options), (e: Error) => {
        assert.ok(e instanceof TypeError, name);
        assert.match(e.message, pattern, name);
        return true;
      });
    }
  });
});
