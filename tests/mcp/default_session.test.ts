/**
 * Sessions that need no setup (docs/mcp.md "Sessions"): a one-shot stdio
 * client is refused with the reason and `--session NAME`; a 2026-07-28
 * request that names no session counts in the server's default session,
 * and a refusal says so; two `serve` processes on one root share a named
 * session's reads, and an undo works through either.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import type { ChildProcess } from "node:child_process";
import {
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { lineHash } from "../../src/hash/fnv.ts";
import { createApp } from "../../src/http/app.ts";
import { collect, startTs, tsCommand } from "../_spawn.ts";

const CLI = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } };
const TEXT = "alpha\nbeta\n";
const EDIT = (file: string) => ({
  path: file,
  ops: [{ op: "replace", start: `2:${lineHash("beta")}`, lines: ["BETA"] }],
});

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("HASHLINE_") && k !== "INIT_CWD") {
      env[k] = v;
    }
  }
  return env;
}

async function stdioClient(root: string, args: string[]): Promise<Client> {
  const [command, lead] = tsCommand(CLI);
  const client = new Client({ name: "one-shot", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command,
      args: [...lead, "mcp", "--root", root, ...args],
      cwd: root,
      env: cleanEnv(),
      stderr: "pipe",
    }),
  );
  return client;
}

async function httpClient(
  url: string,
  headers: Record<string, string> = {},
  fetchImpl?: (req: Request) => Response | Promise<Response>,
): Promise<Client> {
  const client = new Client({ name: "modern", version: "1.0.0" }, MODERN);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers },
      fetch: fetchImpl
        ? (input, init) => Promise.resolve(fetchImpl(new Request(input, init)))
        : undefined,
    }),
  );
  return client;
}

interface Called {
  text: string;
  isError: boolean;
  code: unknown;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Called> {
  const result = await client.callTool({ name, arguments: args });
  const content = (result.content ?? []) as { text: string }[];
  const data = result.structuredContent as
    | { error?: { code?: unknown } }
    | undefined;
  return {
    text: content.map((c) => c.text).join("\n"),
    isError: result.isError === true,
    code: data?.error?.code,
  };
}

/** One shot: a fresh connection per call, closed after it. */
async function oneShot(
  root: string,
  args: string[],
  name: string,
  input: Record<string, unknown>,
): Promise<Called> {
  const client = await stdioClient(root, args);
  try {
    return await call(client, name, input);
  } finally {
    await client.close();
  }
}

describe("sessions that need no setup", () => {
  let root: string;
  before(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "hashline-dflt-")));
    for (const f of ["a.txt", "b.txt", "c.txt", "d.txt"]) {
      await writeFile(join(root, f), TEXT);
    }
  });
  after(() => rm(root, { recursive: true, force: true }));

  it(
    "a one-shot stdio client is refused with why and --session NAME; with --session it edits",
    {
      timeout: 60_000,
    },
    async () => {
      const read = await oneShot(root, [], "read_file", { path: "a.txt" });
      assert.equal(read.isError, false, read.text);
      const refused = await oneShot(root, [], "edit_file", EDIT("a.txt"));
      assert.equal(refused.isError, true);
      assert.equal(refused.code, "NOT_READ");
      assert.match(
        refused.text,
        /this connection's own session "mcp-[0-9a-f]{8}"/,
      );
      assert.match(refused.text, /another connection/);
      assert.match(refused.text, /--session NAME/);
      assert.equal(await readFile(join(root, "a.txt"), "utf8"), TEXT);

      const named = ["--session", "one-shot"];
      assert.equal(
        (await oneShot(root, named, "read_file", { path: "a.txt" })).isError,
        false,
      );
      const edited = await oneShot(root, named, "edit_file", EDIT("a.txt"));
      assert.equal(edited.isError, false, edited.text);
      assert.equal(
        await readFile(join(root, "a.txt"), "utf8"),
        "alpha\nBETA\n",
      );
    },
  );

  it(
    "a 2026-07-28 request with no header counts in the default session, and a refusal names it",
    {
      timeout: 60_000,
    },
    async () => {
      const app = createApp({ root, stateDir: join(root, ".hashline") });
      const url = "http://127.0.0.1/mcp";
      const fetchApp = (req: Request) => app.fetch(req);
      const other = await httpClient(
        url,
        { "Hashline-Session": "other" },
        fetchApp,
      );
      const plain = await httpClient(url, {}, fetchApp);
      try {
        // The read counts in "other"; the edit without the header is refused.
        assert.equal(
          (await call(other, "read_file", { path: "b.txt" })).isError,
          false,
        );
        const refused = await call(plain, "edit_file", EDIT("b.txt"));
        assert.equal(refused.code, "NOT_READ");
        assert.match(refused.text, /default session "default"/);
        assert.match(refused.text, /Hashline-Session: NAME/);
        assert.equal(await readFile(join(root, "b.txt"), "utf8"), TEXT);
        const named = await call(other, "edit_file", EDIT("b.txt"));
        assert.equal(named.isError, false, named.text);
        // With no header at all, the read and the edit meet in the default session.
        assert.equal(
          (await call(plain, "read_file", { path: "c.txt" })).isError,
          false,
        );
        const edited = await call(plain, "edit_file", EDIT("c.txt"));
        assert.equal(edited.isError, false, edited.text);
        assert.equal(
          await readFile(join(root, "c.txt"), "utf8"),
          "alpha\nBETA\n",
        );
        // Every refusal carries its code in structuredContent, not only NOT_READ.
        const stale = await call(plain, "edit_file", EDIT("c.txt"));
        assert.equal(stale.isError, true);
        assert.equal(stale.code, "STALE_ANCHOR");
        assert.equal(
          await readFile(join(root, "c.txt"), "utf8"),
          "alpha\nBETA\n",
        );
      } finally {
        await Promise.all([other.close(), plain.close()]);
      }
    },
  );
});

/** `hashline serve` on `root`, until killed; resolves with its URL and start-up text. */
async function serve(
  root: string,
): Promise<
  { url: string; log: string; child: ChildProcess; done: Promise<unknown> }
> {
  const child = startTs(CLI, [
    "serve",
    "--port",
    "0",
    "--root",
    root,
    "--tools",
    "files,history",
  ], { cwd: root, env: cleanEnv() });
  const done = collect(child);
  const log = await new Promise<string>((resolve, reject) => {
    let seen = "";
    child.stdout?.on("data", (d: string) => {
      seen += d;
      if (/^review page/m.test(seen)) resolve(seen);
    });
    void done.then((r) =>
      reject(new Error(`serve exited before listening: ${seen}${r.stderr}`))
    );
  });
  const url = /^hashline listening on (\S+)$/m.exec(log)![1];
  return { url, log, child, done };
}

describe("two serve processes on one root", () => {
  let root: string;
  const children: { child: ChildProcess; done: Promise<unknown> }[] = [];
  before(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "hashline-two-")));
    await writeFile(join(root, "f.txt"), TEXT);
  });
  after(async () => {
    for (const c of children) c.child.kill("SIGTERM");
    await Promise.all(children.map((c) => c.done));
    await rm(root, { recursive: true, force: true });
  });

  it("share a Hashline-Session's reads, and undo works through either", {
    timeout: 60_000,
  }, async () => {
    const [a, b] = await Promise.all([serve(root), serve(root)]);
    children.push(a, b);
    assert.match(a.log, /^session: default \(the default session/m);
    const headers = { "Hashline-Session": "agent-1" };
    const [onA, onB, stranger] = await Promise.all([
      httpClient(`${a.url}/mcp`, headers),
      httpClient(`${b.url}/mcp`, headers),
      httpClient(`${b.url}/mcp`, { "Hashline-Session": "agent-2" }),
    ]);
    try {
      assert.equal(
        (await call(onA, "read_file", { path: "f.txt" })).isError,
        false,
      );
      const edit = await call(onB, "edit_file", EDIT("f.txt"));
      assert.equal(edit.isError, false, edit.text);
      assert.equal(
        await readFile(join(root, "f.txt"), "utf8"),
        "alpha\nBETA\n",
      );
      const entry = /History entry: (h_\d+)/.exec(edit.text)![1];

      // Another session has not read the lines: its undo is refused, code and all.
      const refused = await call(stranger, "undo_edit", { id: entry });
      assert.equal(refused.isError, true);
      assert.equal(refused.code, "NOT_READ");
      assert.match(refused.text, /session "agent-2"/);
      assert.equal(
        await readFile(join(root, "f.txt"), "utf8"),
        "alpha\nBETA\n",
      );

      const undone = await call(onA, "undo_edit", { id: entry });
      assert.equal(undone.isError, false, undone.text);
      assert.equal(await readFile(join(root, "f.txt"), "utf8"), TEXT);

      // And the other way round: read on B, edit on A, undo on B.
      assert.equal(
        (await call(onB, "read_file", { path: "f.txt" })).isError,
        false,
      );
      const again = await call(onA, "edit_file", EDIT("f.txt"));
      assert.equal(again.isError, false, again.text);
      const second = /History entry: (h_\d+)/.exec(again.text)![1];
      const undoB = await call(onB, "undo_edit", { id: second });
      assert.equal(undoB.isError, false, undoB.text);
      assert.equal(await readFile(join(root, "f.txt"), "utf8"), TEXT);
    } finally {
      await Promise.all([onA.close(), onB.close(), stranger.close()]);
    }
  });
});
