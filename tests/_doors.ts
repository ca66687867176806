/**
 * The doors a step can be run through in tests: the library
 * (`openWorkspace`), the CLI (`src/cli/main.ts` in-process), HTTP
 * (`createApp().fetch`) and MCP (a client over streamable HTTP). Each door
 * reads, patches, lists history, shows an entry and undoes the way a user of
 * that door does, and answers in one shape (`Answer`), so one test body runs
 * at every door. See CONTRIBUTING.md (Tests).
 */
import assert from "node:assert/strict";
import { main } from "../src/cli/main.ts";
import { createApp, type HashlineApp } from "../src/http/app.ts";
import type { HistoryEntry } from "../src/history/mod.ts";
import { openWorkspace } from "../src/workspace/mod.ts";
import { call as httpCall } from "./http/_helpers.ts";
import { connectHttp, type McpTestClient } from "./mcp/_client.ts";
import type { Tree } from "./workspace/_helpers.ts";

/** What a patch or undo answered. */
export interface Answer {
  ok: boolean;
  /** The typed code of a refusal (every door carries it; undefined on success). */
  code?: string;
  /** The result or the refusal's message. */
  text: string;
}

/** One door. */
export interface Door {
  name: "library" | "cli" | "http" | "mcp";
  /** The anchors of a read (the first `limit` lines). */
  read(path: string, limit?: number): Promise<string[]>;
  /** Sends a patch in the JSON form (`{ files }`) or the text form. */
  patch(patch: { files: unknown[] } | string): Promise<Answer>;
  /** The newest 100 history entries, newest first. */
  log(): Promise<HistoryEntry[]>;
  /** The diffs of one history entry, as the door shows them. */
  show(id: string): Promise<string>;
  undo(id: string): Promise<Answer>;
  close(): Promise<void>;
}

/** What one in-process CLI run printed and exited with. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/**
 * Runs the CLI in-process from the tree's root, as a user would, with the
 * tree's state folder as its store (`HASHLINE_STORE`); without `state` the
 * CLI picks its store itself, as with an unset environment.
 */
export async function runCli(
  t: { root: string; state?: string },
  args: string[],
  input = "",
): Promise<CliRun> {
  let out = "";
  let err = "";
  const code = await main([...args, "--root", t.root], {
    cwd: t.root,
    env: (name) =>
      name === "HASHLINE_STORE" && t.state !== undefined ? t.state : undefined,
    stdin: () => Promise.resolve(new TextEncoder().encode(input)),
    stdout: (s) => Promise.resolve(void (out += s)),
    stderr: (s) => Promise.resolve(void (err += s)),
  });
  return { code, out, err };
}

const anchorsOf = (text: string) =>
  text === "" ? [] : text.split("\n").map((l) => l.slice(0, l.indexOf("|")));

function fail(error: unknown): Answer {
  const e = error as { code?: string; message?: string };
  return { ok: false, code: e.code, text: String(e.message) };
}

/** The library door. */
export function libraryDoor(t: Tree): Door {
  const ws = openWorkspace(t.root, { stateDir: t.state });
  return {
    name: "library",
    read: async (p, limit) =>
      anchorsOf((await ws.read(p, limit ? { limit } : {})).text),
    patch: async (patch) => {
      try {
        const r = await ws.patch(patch as never);
        return { ok: true, text: r.summary };
      } catch (error) {
        return fail(error);
      }
    },
    log: () => ws.history({ limit: 100 }),
    show: async (id) =>
      (await ws.entry(id)).files.map((f) => f.diff).join("\n"),
    undo: async (id) => {
      try {
        return { ok: true, text: (await ws.undo(id)).summary };
      } catch (error) {
        return fail(error);
      }
    },
    close: () => Promise.resolve(),
  };
}

/** The CLI door: `read`, `patch -` (JSON or text on stdin), `log --json`, `undo`. */
export function cliDoor(t: Tree): Door {
  const run = (args: string[], input = "") => runCli(t, args, input);
  const answer = (r: { code: number; out: string; err: string }): Answer => {
    if (r.code === 0) return { ok: true, text: r.out };
    const body = JSON.parse(r.out);
    return { ok: false, code: body.error.code, text: body.error.message };
  };
  return {
    name: "cli",
    read: async (p, limit) => {
      const r = await run([
        "read",
        p,
        ...(limit ? ["--limit", `${limit}`] : []),
      ]);
      assert.equal(r.code, 0, r.err);
      // The first line names the file (@@ PATH).
      return anchorsOf(r.out.trimEnd().replace(/^@@ .*\n?/, ""));
    },
    patch: async (patch) =>
      answer(
        await run(
          ["patch", "-", "--json"],
          typeof patch === "string" ? patch : JSON.stringify(patch),
        ),
      ),
    log: async () => {
      const r = await run(["log", "--json", "--limit", "100"]);
      assert.equal(r.code, 0, r.err);
      const body = JSON.parse(r.out);
      assert.equal(body.ok, true);
      return body.entries;
    },
    show: async (id) => (await run(["show", id])).out,
    undo: async (id) => answer(await run(["undo", id, "--json"])),
    close: () => Promise.resolve(),
  };
}

/** The HTTP door, with its app for the routes a test calls beside it. */
export interface HttpDoor extends Door {
  app: HashlineApp;
}

/** The HTTP door: `/v1/files/read`, `/v1/files/patch` (`{ files }` or `{ patch }`), history routes. */
export function httpDoor(t: Tree): HttpDoor {
  const app = createApp({ root: t.root, stateDir: t.state });
  // deno-lint-ignore no-explicit-any
  const answer = (r: { status: number; body: any }): Answer =>
    r.status === 200
      ? { ok: true, text: r.body.summary }
      : { ok: false, code: r.body.error.code, text: r.body.error.message };
  return {
    name: "http",
    app,
    read: async (p, limit) => {
      const r = await httpCall(app, "POST", "/v1/files/read", {
        path: p,
        ...(limit ? { limit } : {}),
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return anchorsOf(r.body.text);
    },
    patch: async (patch) =>
      answer(
        await httpCall(
          app,
          "POST",
          "/v1/files/patch",
          typeof patch === "string" ? { patch } : patch,
        ),
      ),
    log: async () => {
      const r = await httpCall(app, "GET", "/v1/history?limit=100");
      assert.equal(r.status, 200);
      return r.body.entries;
    },
    show: async (id) => {
      const r = await httpCall(app, "GET", `/v1/history/${id}`);
      return r.body.entry.files.map((f: { diff: string }) => f.diff).join(
        "\n",
      );
    },
    undo: async (id) =>
      answer(await httpCall(app, "POST", `/v1/history/${id}/undo`, {})),
    close: () => Promise.resolve(),
  };
}

/**
 * An MCP client over streamable HTTP to an app serving the tree (its state
 * folder as `stateDir`), for a test that calls tools itself; close it in
 * `finally`.
 */
export async function mcpClient(
  t: { root: string; state: string },
  tools?: NonNullable<Parameters<typeof createApp>[0]>["tools"],
): Promise<McpTestClient> {
  const app = createApp({
    root: t.root,
    stateDir: t.state,
    ...(tools ? { tools } : {}),
  });
  return await connectHttp("http://localhost/mcp", { app });
}

/** The MCP door over streamable HTTP (`edit_file` with `files` or `patch`). */
export async function mcpDoor(t: Tree): Promise<Door> {
  const mcp = await mcpClient(t, ["files", "store", "history"]);
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await mcp.client.callTool({ name, arguments: args }) as {
      isError?: boolean;
      structuredContent?: Record<string, unknown>;
      content: { text: string }[];
    };
    return r;
  };
  // A refusal carries its code in structured form beside the message.
  const answer = (r: Awaited<ReturnType<typeof call>>): Answer => ({
    ok: !r.isError,
    code: r.isError
      ? (r.structuredContent?.error as { code?: string } | undefined)?.code
      : undefined,
    text: r.content.map((c) => c.text).join("\n"),
  });
  return {
    name: "mcp",
    read: async (p, limit) => {
      const r = await call("read_file", {
        path: p,
        ...(limit ? { limit } : {}),
      });
      assert.ok(!r.isError, r.content[0]?.text);
      return anchorsOf(r.structuredContent!.text as string);
    },
    patch: async (patch) => {
      const r = await call(
        "edit_file",
        typeof patch === "string" ? { patch } : patch,
      );
      return answer(r);
    },
    log: async () =>
      (await call("edit_history", { limit: 100 })).structuredContent!
        .entries as HistoryEntry[],
    show: async (id) => (await call("edit_history", { id })).content[0].text,
    undo: async (id) => answer(await call("undo_edit", { id })),
    close: () => mcp.close(),
  };
}
