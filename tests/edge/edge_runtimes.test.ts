/**
 * The `./edge` entry as it runs on real edge runtimes: bundled once with
 * esbuild (browser platform, no Node polyfills), served from Cloudflare's
 * workerd (miniflare, no compatibility flags) and from Vercel's
 * edge-runtime (no eval, no Wasm compiled from bytes), and answering real
 * HTTP requests. The runtimes are Node programs, so a plain Node child hosts
 * them whichever runtime runs this file.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createApp } from "../../src/http/app.ts";

const TOKEN = "edge-test-token";
/** The bundle must stay small enough for the free tiers of edge platforms. */
const MAX_GZIP_BYTES = 120 * 1024;
const HOSTS = fileURLToPath(new URL("./hosts/_hosts.mjs", import.meta.url));

interface Hosts {
  workerd: string;
  edgeRuntime: string;
  bytes: number;
  gzipBytes: number;
  nodeImports: string[];
}

let child: ChildProcess | undefined;
let exited: Promise<void> | undefined;

function startHosts(): Promise<Hosts> {
  const proc = spawn("node", [HOSTS, TOKEN], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  child = proc;
  exited = new Promise((resolve) => proc.on("close", () => resolve()));
  let out = "";
  let err = "";
  proc.stderr.setEncoding("utf8");
  proc.stderr.on("data", (d: string) => (err += d));
  proc.stdout.setEncoding("utf8");
  return new Promise((resolve, reject) => {
    proc.on("error", reject);
    proc.stdout.on("data", (d: string) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)));
    });
    proc.on("close", (code) =>
      reject(
        new Error(
          `The edge host exited (code ${code}) before serving (its packages: npm ci --prefix tests/edge/hosts):\n${err}`,
        ),
      ));
  });
}

let started: Promise<Hosts> | undefined;
/** The hosts, started by the first caller. */
function hosts(): Promise<Hosts> {
  started ??= startHosts();
  return started;
}

/** The full app, in process, as the reference for every answer. */
const full = createApp({ token: TOKEN });

interface Answer {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
}

async function send(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(base + path, {
    method,
    // A fresh connection per request: after a body-limit refusal the host
    // may close a socket Bun's pool would otherwise hand the next request
    // (ECONNRESET under load).
    keepalive: false,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/json",
      ...headers,
    },
    body: body === undefined
      ? undefined
      : typeof body === "string"
      ? body
      : body instanceof Uint8Array
      ? new Blob([body as Uint8Array<ArrayBuffer>])
      : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The engine probe answers plain text.
  }
  return { status: res.status, body: parsed };
}

async function reference(
  path: string,
  body: unknown,
): Promise<Answer> {
  const res = await full.request(path, {
    method: "POST",
    headers: {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe("the ./edge entry on real edge runtimes", () => {
  before(async () => {
    await hosts();
  });
  after(async () => {
    child?.stdin?.end();
    await exited;
  });

  it(`is at most ${MAX_GZIP_BYTES / 1024} KiB gzipped and holds no node:* import`, async () => {
    const h = await hosts();
    console.log(
      `edge bundle: ${(h.bytes / 1024).toFixed(1)} KiB minified, ${
        (h.gzipBytes / 1024).toFixed(1)
      } KiB gzipped (limit ${MAX_GZIP_BYTES / 1024} KiB)`,
    );
    assert.deepEqual(h.nodeImports, []);
    assert.ok(
      h.gzipBytes <= MAX_GZIP_BYTES,
      `The edge bundle is ${h.gzipBytes} bytes gzipped, over ${MAX_GZIP_BYTES}: find what pulled weight into the ./edge graph.`,
    );
  });

  for (const runtime of ["workerd", "edgeRuntime"] as const) {
    describe(`in ${runtime}`, () => {
      const base = async (): Promise<string> => (await hosts())[runtime];
      const content = "def greet(name):\r\n    return f'héllo {name}'\r\n\r\n";

      it("answers GET /health", async () => {
        const res = await send(await base(), "GET", "/health");
        assert.equal(res.status, 200);
        assert.deepEqual(res.body, { ok: true, service: "hashline" });
      });

      it("hashes with the TypeScript twin, since the platform refuses to compile Wasm", async () => {
        const res = await send(await base(), "GET", "/__engine");
        assert.equal(res.body, "ts");
      });

      it("answers POST /v1/format exactly as the full app does", async () => {
        const body = { content, offset: 2, limit: 2 };
        const res = await send(await base(), "POST", "/v1/format", body);
        assert.equal(res.status, 200);
        assert.deepEqual(res, await reference("/v1/format", body));
        assert.equal(res.body.totalLines, 3);
      });

      it("applies a patch, refuses a stale one whole, and takes the resend built from the refusal", async () => {
        const url = await base();
        const view = await send(url, "POST", "/v1/format", { content });
        const anchor = view.body.text.split("\n")[1].split("|")[0];
        const fresh = await send(url, "POST", "/v1/apply", {
          content,
          patch: `= ${anchor}\n~    return name`,
        });
        assert.equal(fresh.status, 200);
        assert.deepEqual(fresh.body, {
          ok: true,
          content: "def greet(name):\r\n    return name\r\n\r\n",
        });

        const changed = content.replace("héllo", "hello");
        const stale = {
          content: changed,
          patch: `= ${anchor}\n~    return name`,
        };
        const refused = await send(url, "POST", "/v1/apply", stale);
        assert.equal(refused.status, 409);
        assert.equal(refused.body.ok, false);
        assert.equal(refused.body.error.code, "STALE_ANCHOR");
        assert.match(
          refused.body.error.message,
          /^Rejected — nothing written\./,
        );
        assert.deepEqual(refused, await reference("/v1/apply", stale));

        const now = /^2:[0-9a-f]{2}(?=\|)/m.exec(refused.body.error.message);
        assert.ok(now, "the refusal shows line 2 with its fresh anchor");
        const resent = await send(url, "POST", "/v1/apply", {
          content: changed,
          ops: [{ op: "replace", start: now[0], lines: ["    return name"] }],
        });
        assert.equal(resent.status, 200);
        assert.equal(
          resent.body.content,
          "def greet(name):\r\n    return name\r\n\r\n",
        );
      });

      it("keeps the full app's guards: token, JSON only, strict UTF-8, body limit", async () => {
        const url = await base();
        const noToken = await send(url, "POST", "/v1/format", { content }, {
          authorization: "",
        });
        assert.equal(noToken.status, 401);
        assert.equal(noToken.body.error.code, "UNAUTHORIZED");

        const text = await send(url, "POST", "/v1/format", "content=x", {
          "content-type": "text/plain",
        });
        assert.equal(text.status, 415);
        assert.equal(text.body.error.code, "UNSUPPORTED_MEDIA_TYPE");

        const latin1 = new Uint8Array([
          ...new TextEncoder().encode('{"content":"caf'),
          0xe9,
          ...new TextEncoder().encode('"}'),
        ]);
        const bad = await send(url, "POST", "/v1/format", latin1);
        assert.equal(bad.status, 400);
        assert.match(bad.body.error.message, /not valid UTF-8.*offset 15/);

        const big = await send(url, "POST", "/v1/format", {
          content: "x".repeat(70_000),
        });
        assert.equal(big.status, 413);
        assert.equal(big.body.error.code, "TOO_LARGE");
      });

      it("answers the routes that need a disk with 501 NOT_AVAILABLE saying why", async () => {
        const url = await base();
        for (
          const [method, path] of [
            ["POST", "/v1/files/read"],
            ["POST", "/v1/files/patch"],
            ["POST", "/v1/revisions"],
            ["GET", "/v1/revisions/p_abc/lines"],
            ["POST", "/mcp"],
          ]
        ) {
          const res = await send(
            url,
            method,
            path,
            method === "POST" ? { path: "a.txt" } : undefined,
          );
          assert.equal(res.status, 501, `${method} ${path}`);
          assert.equal(res.body.ok, false);
          assert.equal(res.body.error.code, "NOT_AVAILABLE");
          assert.match(res.body.error.message, /not available in the edge app/);
          assert.match(res.body.error.message, /POST \/v1\/apply/);
        }
      });
    });
  }
});
