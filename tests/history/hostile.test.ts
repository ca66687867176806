/**
 * Hostile or damaged history state gets a typed answer on every door
 * (library, CLI, HTTP, MCP), at once: a log that is not a regular file
 * (FIFO, folder, symlink) is refused as `HISTORY` (500, exit 1, an MCP
 * error) naming the file, never blocking and never `BAD_INPUT`; records
 * that pass their checksum but not the entry's shape (`files: [null]`,
 * `hunks: null`) are skipped and named in a warning, and showing one is
 * `HISTORY`. A blocking open would hang until the deadline; the deadlines
 * leave room for the doors' first loading on a busy machine (an answer
 * takes milliseconds once loaded).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  appendFile,
  mkdir,
  readFile,
  symlink,
  writeFile,
} from "node:fs/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { frameRecord } from "../../src/history/mod.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { runCli } from "../_doors.ts";
import { call } from "../http/_helpers.ts";
import { connectHttp } from "../mcp/_client.ts";
import { makeTree, type Tree } from "../workspace/_helpers.ts";

const cli = (t: Tree, args: string[]) => runCli(t, args);

/** Every door's answer to listing the history and showing `id`. */
async function doors(t: Tree, id: string) {
  const ws = openWorkspace(t.root, { stateDir: t.state });
  const lib = await ws.history({ limit: 10 }).then(
    (entries) => ({ ok: true as const, entries, warnings: entries.warnings }),
    (e) => ({ ok: false as const, code: e.code, message: e.message }),
  );
  const libShow = await ws.entry(id).then(
    () => ({ ok: true as const }),
    (e) => ({ ok: false as const, code: e.code, message: e.message }),
  );
  const cliLog = await cli(t, ["log", "--json", "--limit", "10"]);
  const cliShow = await cli(t, ["show", id, "--json"]);
  const app = createApp({
    root: t.root,
    stateDir: t.state,
    tools: ["files", "history"],
  });
  const httpLog = await call(app, "GET", "/v1/history?limit=10");
  const httpShow = await call(app, "GET", `/v1/history/${id}`);
  const mcp = await connectHttp("http://localhost/mcp", { app });
  try {
    const mcpLog = await mcp.tool("edit_history", { limit: 10 });
    const mcpShow = await mcp.tool("edit_history", { id });
    return {
      lib,
      libShow,
      cliLog,
      cliShow,
      httpLog,
      httpShow,
      mcpLog,
      mcpShow,
    };
  } finally {
    await mcp.close();
  }
}

async function withEntries(t: Tree): Promise<void> {
  await writeFile(join(t.root, "a.txt"), "one\ntwo\n");
  const ws = openWorkspace(t.root, { stateDir: t.state });
  await ws.read("a.txt");
  for (const line of ["three", "four"]) {
    await ws.patch({
      files: [{ path: "a.txt", ops: [{ op: "append", lines: [line] }] }],
    });
  }
}

function assertRefused(
  answers: Awaited<ReturnType<typeof doors>>,
  file: string,
): void {
  for (const a of [answers.lib, answers.libShow]) {
    assert.equal(a.ok, false);
    assert.equal((a as { code: string }).code, "HISTORY");
    assert.ok((a as { message: string }).message.includes(file));
  }
  for (const r of [answers.cliLog, answers.cliShow]) {
    assert.equal(r.code, 1, r.out + r.err);
    const body = JSON.parse(r.out);
    assert.equal(body.error.code, "HISTORY");
    assert.ok(body.error.message.includes(file));
  }
  for (const r of [answers.httpLog, answers.httpShow]) {
    assert.equal(r.status, 500, JSON.stringify(r.body));
    assert.equal(r.body.error.code, "HISTORY");
    assert.ok(r.body.error.message.includes(file));
  }
  // MCP tool errors carry the message (the same sentence as the code's).
  for (const r of [answers.mcpLog, answers.mcpShow]) {
    assert.equal(r.isError, true);
    assert.match(r.text, /^Cannot read the edit history: /);
    assert.ok(r.text.includes(file));
  }
}

function mkfifo(path: string): string | null {
  const r = spawnSync("mkfifo", [path]);
  return r.status === 0 ? null : `mkfifo failed: ${String(r.stderr)}`;
}

/** Why FIFO tests cannot run on this machine (no working `mkfifo`), or false. */
function fifoMissing(): string | false {
  const dir = mkdtempSync(join(tmpdir(), "hashline-fifo-"));
  try {
    return mkfifo(join(dir, "probe")) ?? false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const NO_FIFO = fifoMissing();

describe("hostile history state", () => {
  it("a FIFO in place of the log: HISTORY on every door, at once", {
    timeout: 10_000,
    skip: NO_FIFO,
  }, async () => {
    const t = await makeTree();
    try {
      await mkdir(join(t.state, "history"), { recursive: true });
      const log = join(t.state, "history", "log");
      assert.equal(mkfifo(log), null);
      assertRefused(await doors(t, "h_1"), log);
      // An edit is refused too, and its file stays as it was.
      await writeFile(join(t.root, "a.txt"), "one\n");
      const ws = openWorkspace(t.root, { stateDir: t.state });
      await ws.read("a.txt");
      await assert.rejects(
        ws.patch({
          files: [{ path: "a.txt", ops: [{ op: "append", lines: ["x"] }] }],
        }),
        (e: Error & { code?: string }) =>
          e.code === "HISTORY" && e.message.includes(log),
      );
      assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), "one\n");
    } finally {
      await t.cleanup();
    }
  });

  for (const name of ["next", "lock"]) {
    it(`a FIFO in place of the history's ${name} file never blocks an edit`, {
      timeout: 5_000,
      skip: NO_FIFO,
    }, async () => {
      const t = await makeTree();
      try {
        await mkdir(join(t.state, "history"), { recursive: true });
        assert.equal(mkfifo(join(t.state, "history", name)), null);
        await writeFile(join(t.root, "a.txt"), "one\n");
        const ws = openWorkspace(t.root, { stateDir: t.state });
        await ws.read("a.txt");
        const r = await ws.patch({
          files: [{ path: "a.txt", ops: [{ op: "append", lines: ["two"] }] }],
        });
        assert.equal(r.entry, "h_1");
        assert.deepEqual((await ws.history()).map((e) => e.id), ["h_1"]);
        assert.equal(
          await readFile(join(t.root, "a.txt"), "utf8"),
          "one\ntwo\n",
        );
      } finally {
        await t.cleanup();
      }
    });
  }

  for (const kind of ["folder", "symlink"] as const) {
    it(`a ${kind} in place of the log: HISTORY on every door`, {
      timeout: 10_000,
    }, async () => {
      const t = await makeTree();
      try {
        const log = join(t.state, "history", "log");
        await mkdir(join(t.state, "history"), { recursive: true });
        if (kind === "folder") await mkdir(log);
        else {
          await writeFile(join(t.root, "elsewhere"), "");
          await symlink(join(t.root, "elsewhere"), log);
        }
        assertRefused(await doors(t, "h_1"), log);
      } finally {
        await t.cleanup();
      }
    });
  }

  const damaged: [string, (r: Record<string, unknown>) => unknown][] = [
    ["files: [null]", (r) => ({ ...r, files: [null] })],
    ["hunks: null", (r) => ({
      ...r,
      files: (r.files as Record<string, unknown>[]).map((f) => ({
        ...f,
        hunks: null,
      })),
    })],
    // Values no writer makes, which the page would otherwise print raw.
    ['undoOf: "h_\\x1b"', (r) => ({ ...r, undoOf: "h_\x1b" })],
    ['time: "not-a-time"', (r) => ({ ...r, time: "not-a-time" })],
  ];
  for (const [name, damage] of damaged) {
    it(
      `a record with ${name}: skipped with a warning naming it on every door, HISTORY when shown`,
      {
        timeout: 10_000,
      },
      async () => {
        const t = await makeTree();
        try {
          await withEntries(t);
          const log = join(t.state, "history", "log");
          const good = JSON.parse(
            (await readFile(log, "utf8")).trim().split("\n")[0].replace(
              /^\d+ [0-9a-f]+ /,
              "",
            ),
          );
          const bad = damage({ ...good, id: "h_3" });
          await appendFile(log, frameRecord(bad as never));
          const a = await doors(t, "h_3");
          assert.equal(a.lib.ok, true);
          const lib = a.lib as {
            entries: { id: string }[];
            warnings: string[];
          };
          assert.deepEqual(lib.entries.map((e) => e.id), ["h_2", "h_1"]);
          assert.equal(lib.warnings.length, 1);
          assert.match(lib.warnings[0], /"h_3"/);
          assert.ok(lib.warnings[0].includes(log));
          assert.equal(a.cliLog.code, 0, a.cliLog.err);
          const cliBody = JSON.parse(a.cliLog.out);
          assert.deepEqual(
            cliBody.entries.map((e: { id: string }) => e.id),
            ["h_2", "h_1"],
          );
          assert.match(cliBody.warnings[0], /"h_3"/);
          assert.equal(a.httpLog.status, 200);
          assert.match(a.httpLog.body.warnings[0], /"h_3"/);
          assert.equal(a.httpLog.body.entries.length, 2);
          assert.equal(a.mcpLog.isError, false);
          assert.match(a.mcpLog.text, /Skipped record "h_3"/);
          // Showing the damaged record is a typed server-side answer.
          assert.equal((a.libShow as { code?: string }).code, "HISTORY");
          assert.equal(a.cliShow.code, 1);
          assert.equal(JSON.parse(a.cliShow.out).error.code, "HISTORY");
          assert.equal(a.httpShow.status, 500);
          assert.equal(a.httpShow.body.error.code, "HISTORY");
          assert.equal(a.mcpShow.isError, true);
          assert.match(a.mcpShow.text, /Cannot read entry h_3/);
        } finally {
          await t.cleanup();
        }
      },
    );
  }
});
