// What a user of the installed package does first, in plain JavaScript so
// every runtime runs it as it is: an anchored read, a patch, a stale
// refusal and the resend built from it; a store put/get; the app answering
// requests; a missing optional package named in the error. Prints one line
// starting with "smoke ok" when everything held.
import assert from "node:assert/strict";
import {
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rm,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import {
  createApp,
  createToolRegistry,
  formatHashlines,
  openWorkspace,
  PatchRefusedError,
  startServer,
} from "@hashline/kit";
import { lineHash } from "@hashline/kit/hash";
import { applyPatch } from "@hashline/kit/patch";
import { createMemoryStore, openPostgresStore } from "@hashline/kit/store";
import { openAiTools } from "@hashline/kit/openai";

const anchorOf = (text, content) => {
  const row = text.split("\n").find((l) => l.endsWith(`|${content}`));
  assert.ok(row, `no row shows ${content} in:\n${text}`);
  return row.trim().replace(/^[>\s-]*/, "").split("|")[0];
};

assert.equal(lineHash("def greet(name):"), "fb");
assert.equal(formatHashlines("a\nb\n").text, "1:ed|a\n2:23|b");
assert.equal(
  applyPatch("a\nb\n", `= 2:${lineHash("b")}\n~B`),
  "a\nB\n",
);

const base = await realpath(await mkdtemp(join(tmpdir(), "hashline-smoke-")));
try {
  const root = join(base, "root");
  await mkdir(root);
  const file = join(root, "app.py");
  await writeFile(file, "def greet(name):\n    return name\n");
  const ws = openWorkspace(root, { stateDir: join(base, "state") });

  const view = await ws.read("app.py");
  await ws.patch({
    files: [{
      path: "app.py",
      ops: [{
        op: "insert_after",
        anchor: anchorOf(view.text, "    return name"),
        lines: ["# end"],
      }],
    }],
  });
  assert.equal(
    await readFile(file, "utf8"),
    "def greet(name):\n    return name\n# end\n",
  );

  const before = await ws.read("app.py");
  const theirs = "def greet(name):\n    return name.title()\n# end\n";
  await writeFile(file, theirs);
  const refusal = await ws.patch({
    files: [{
      path: "app.py",
      ops: [{
        op: "replace",
        start: anchorOf(before.text, "    return name"),
        lines: ["    return f'hi {name}'"],
      }],
    }],
  }).then(() => null, (e) => e);
  assert.ok(refusal instanceof PatchRefusedError, String(refusal));
  assert.match(refusal.message, /^Rejected — nothing written\./);
  assert.equal(await readFile(file, "utf8"), theirs);
  await ws.patch({
    files: [{
      path: "app.py",
      ops: [{
        op: "replace",
        start: anchorOf(refusal.message, "    return name.title()"),
        lines: ["    return f'hi {name.title()}'"],
      }],
    }],
  });
  assert.equal(
    await readFile(file, "utf8"),
    "def greet(name):\n    return f'hi {name.title()}'\n# end\n",
  );

  const store = createMemoryStore();
  const put = await store.put("export const answer = 42;\n");
  assert.match(put.ref, /^sha256:[0-9a-f]{64}$/);
  assert.match(put.handle, /^p_[0-9a-f]{12}$/);
  assert.equal(await store.get(put.handle), "export const answer = 42;\n");

  const app = createApp({ store });
  const health = await app.fetch(new Request("http://127.0.0.1/health"));
  assert.equal(health.status, 200);
  const format = await app.fetch(
    new Request("http://127.0.0.1/v1/format", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "a\nb\n" }),
    }),
  );
  assert.equal(format.status, 200);
  const formatted = await format.json();
  assert.equal(formatted.ok, true);
  assert.match(JSON.stringify(formatted), /1:ed\|a/);

  const openai = openAiTools(
    createToolRegistry({ workspace: ws, store }),
  );
  const reply = await openai.runToolCall({
    id: "c1",
    type: "function",
    function: { name: "read_file", arguments: '{"path":"app.py"}' },
  });
  assert.match(reply.content, /^1:fb\|def greet\(name\):$/m);

  // The bare install has no driver: the error names the package to add.
  await assert.rejects(
    openPostgresStore("postgres://nobody@127.0.0.1:1/none").put("x"),
    (e) =>
      e.name === "MissingPackageError" &&
      /npm install postgres/.test(e.message),
  );

  // Deno and Bun serve natively; Node needs the optional adapter, which the
  // bare install lacks, and is told which package to add.
  if (!globalThis.Deno && !globalThis.Bun) {
    await assert.rejects(
      startServer({ port: 0, store }),
      (e) =>
        e.name === "MissingPackageError" &&
        /npm install @hono\/node-server/.test(e.message),
    );
  } else {
    const server = await startServer({ port: 0, store });
    const res = await fetch(`http://127.0.0.1:${server.port}/health`);
    assert.equal(res.status, 200);
    await res.body?.cancel();
    await server.close();
  }
} finally {
  await rm(base, { recursive: true, force: true });
}

const runtime = globalThis.Deno
  ? `deno ${globalThis.Deno.version.deno}`
  : globalThis.Bun
  ? `bun ${globalThis.Bun.version}`
  : `node ${process.versions.node}`;
console.log(`smoke ok: ${runtime}`);
