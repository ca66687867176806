// Test host, run by plain Node whatever runtime runs the tests (miniflare and
// edge-runtime are Node programs): bundles the edge entry once with esbuild
// (browser platform, no Node polyfills), serves the bundle from Cloudflare's
// workerd (through miniflare, no compatibility flags) and from Vercel's
// edge-runtime, prints one JSON line with both URLs and the bundle's sizes,
// and stops both when its standard input closes.
import { Buffer } from "node:buffer";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, transform } from "esbuild";
import { EdgeRuntime, runServer } from "edge-runtime";
import { Miniflare } from "miniflare";

const token = process.argv[2];
const root = fileURLToPath(new URL("../../..", import.meta.url));

// The worker as a user would write it, plus one route only tests use: which
// hash engine the platform left us with.
const entry = `
import { createEdgeApp } from "./src/http/edge.ts";
import { hashEngine } from "./src/hash/mod.ts";
const app = createEdgeApp({ token: ${
  JSON.stringify(token)
}, maxBodyBytes: 65536 });
export default {
  fetch(request) {
    if (new URL(request.url).pathname === "/__engine") {
      return new Response(hashEngine());
    }
    return app.fetch(request);
  },
};
`;

const bundle = await build({
  stdin: { contents: entry, resolveDir: root, sourcefile: "worker.js" },
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  write: false,
  logLevel: "silent",
});
const code = bundle.outputFiles[0].text;
const bytes = Buffer.byteLength(code);
const gzipBytes = gzipSync(code).length;
const nodeImports = [...new Set(code.match(/\bnode:[a-z_/]+/g) ?? [])];

const miniflare = new Miniflare({
  modules: [{ type: "ESModule", path: "worker.js", contents: code }],
  compatibilityDate: "2025-01-01",
  compatibilityFlags: [],
  host: "127.0.0.1",
  port: 0,
});
const workerdUrl = (await miniflare.ready).href.replace(/\/$/, "");

// edge-runtime evaluates a classic script that listens for fetch events.
// Its VM compiles Wasm from bytes unless told not to; Vercel's Edge forbids
// that, as it forbids eval, so the host forbids both.
const script = await transform(code, {
  format: "iife",
  globalName: "hashlineWorker",
  logLevel: "silent",
});
const runtime = new EdgeRuntime({
  codeGeneration: { strings: false, wasm: false },
  initialCode: `${script.code}
addEventListener("fetch", (event) => {
  event.respondWith(hashlineWorker.default.fetch(event.request));
});`,
});
const edge = await runServer({ runtime, host: "127.0.0.1", port: 0 });

process.stdout.write(
  JSON.stringify({
    workerd: workerdUrl,
    edgeRuntime: edge.url.replace(/\/$/, ""),
    bytes,
    gzipBytes,
    nodeImports,
  }) + "\n",
);

process.stdin.resume();
process.stdin.on("end", async () => {
  await Promise.allSettled([miniflare.dispose(), edge.close()]);
  process.exit(0);
});
