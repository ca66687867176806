/**
 * The HTTP app in-process and over a real port: format content statelessly,
 * read and patch a workspace file with a session header, store and fetch an
 * immutable revision, then the same tools over MCP.
 *
 *   node_modules/.bin/deno run -A examples/server.ts
 *   node_modules/.bin/bun run examples/server.ts
 *   node --import tsx examples/server.ts
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/http/app.ts";
import { startServer } from "../src/http/server.ts";
import { createMemoryStore } from "../src/store/mod.ts";

const dir = await mkdtemp(join(tmpdir(), "hashline-example-"));
await writeFile(
  join(dir, "greet.ts"),
  "export function greet(name) {\n  return 'hi ' + name;\n}\n",
);
const app = createApp({
  root: dir,
  stateDir: join(dir, ".hashline"),
  store: createMemoryStore(),
});
const post = (path: string, body: unknown, session = "example") =>
  app.request(path, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "hashline-session": session,
    },
    body: JSON.stringify(body),
  });

try {
  // Stateless: works without any workspace or store (edge functions).
  const formatted = await (await post("/v1/format", { content: "a\nb\n" }))
    .json();
  console.log("format  ", JSON.stringify(formatted.text));

  // Read, then patch by anchor; the session header says whose read counts.
  const view = await (await post("/v1/files/read", { path: "greet.ts" }))
    .json();
  console.log("read\n" + view.text);
  const anchor = view.text.split("\n")[1].split("|")[0];
  const patched = await (await post("/v1/files/patch", {
    patch: `@@ greet.ts\n= ${anchor}\n~  return \`hello \${name}\`;`,
  })).json();
  console.log(patched.summary.split("\n")[0]);
  console.log(
    "on disk:",
    JSON.stringify(await readFile(join(dir, "greet.ts"), "utf8")),
  );

  // The same patch again is stale: refused whole, nothing written.
  const stale = await post("/v1/files/patch", {
    patch: `@@ greet.ts\n= ${anchor}\n~oops`,
  });
  const refusal = await stale.json();
  console.log("stale   ", stale.status, refusal.error.code);

  // Another session has not read the file, so it may not patch it.
  const stranger = await post("/v1/files/patch", {
    patch: `@@ greet.ts\n- 1:00`,
  }, "other");
  console.log("other   ", stranger.status, (await stranger.json()).error.code);

  // Revisions are immutable: the ETag is the ref, and a revalidation is a 304.
  const put = await (await post("/v1/revisions", { source: "const x = 1;\n" }))
    .json();
  const first = await app.request(`/v1/revisions/${put.handle}`);
  console.log(
    "revision",
    first.status,
    first.headers.get("etag"),
    JSON.stringify(await first.text()),
  );
  const again = await app.request(`/v1/revisions/${put.handle}`, {
    headers: { "if-none-match": first.headers.get("etag")! },
  });
  console.log("again   ", again.status);

  // Over a real port, bound to 127.0.0.1.
  const server = await startServer({
    port: 0,
    root: dir,
    stateDir: join(dir, ".hashline"),
  });
  try {
    const health = await fetch(`${server.url}/health`);
    console.log(
      "network ",
      server.url,
      health.status,
      JSON.stringify(await health.json()),
    );
  } finally {
    await server.close();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
