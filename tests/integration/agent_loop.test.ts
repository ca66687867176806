/**
 * The agent's loop end to end, through every door a harness uses: a real
 * MCP client (the SDK's `Client`) over stdio and over streamable HTTP, and
 * the command line. In each: read, another writer changes a line the patch
 * touches, the patch is refused, the client resends with anchors parsed from
 * the refusal text alone and it applies; with rebase a patch built before
 * lines were inserted above applies where they moved and says so; without
 * rebase it is refused with "moved to line N".
 */
import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { startServer } from "../../src/http/server.ts";
import { tsCommand } from "../_spawn.ts";
import { hashline, type TempDir, tempDir } from "../cli/_cli.ts";
import { connectHttp } from "../mcp/_client.ts";

/** What a door gives back: the text a model reads, and whether it was refused. */
interface Answer {
  text: string;
  refused: boolean;
}

/** One way in: read a file, send ops for it. */
interface Door {
  read(path: string): Promise<Answer>;
  edit(path: string, ops: unknown[], rebase?: boolean): Promise<Answer>;
  close(): Promise<void>;
}

/** The anchor the text shows for the line whose content is `content`. */
function anchorFor(text: string, content: string): string {
  const re = new RegExp(
    `(\\d+:[0-9a-f]{2})\\|${content.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`,
    "m",
  );
  const m = re.exec(text);
  assert.ok(m, `no anchor for ${JSON.stringify(content)} in:\n${text}`);
  return m[1];
}

const FILE = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"];
const body = (lines: string[]) => lines.join("\n") + "\n";

async function scenario(root: string, door: Door): Promise<void> {
  const file = join(root, "loop.txt");
  await writeFile(file, body(FILE));

  // Stale → refused → resend with the refusal's anchors → applied.
  const first = await door.read("loop.txt");
  assert.equal(first.refused, false, first.text);
  await writeFile(file, body(FILE.map((l) => (l === "gamma" ? "GAMMA" : l))));
  const stale = await door.edit("loop.txt", [{
    op: "replace",
    start: anchorFor(first.text, "gamma"),
    lines: ["gamma 2"],
  }]);
  assert.equal(stale.refused, true, stale.text);
  assert.match(stale.text, /Rejected — nothing written\./);
  assert.equal(
    await readFile(file, "utf8"),
    body(FILE.map((l) => (l === "gamma" ? "GAMMA" : l))),
  );
  const resent = await door.edit("loop.txt", [{
    op: "replace",
    start: anchorFor(stale.text, "GAMMA"),
    lines: ["gamma 2"],
  }]);
  assert.equal(resent.refused, false, resent.text);
  const now = FILE.map((l) => (l === "gamma" ? "gamma 2" : l));
  assert.equal(await readFile(file, "utf8"), body(now));

  // Lines inserted above: applied where they moved with rebase, and said so.
  const second = await door.read("loop.txt");
  await writeFile(file, body(["new 1", "new 2", ...now]));
  const rebased = await door.edit("loop.txt", [{
    op: "replace",
    start: anchorFor(second.text, "epsilon"),
    lines: ["epsilon 2"],
  }], true);
  assert.equal(rebased.refused, false, rebased.text);
  assert.match(rebased.text, /line 5 → 7/);
  const moved = ["new 1", "new 2", ...now].map((l) =>
    l === "epsilon" ? "epsilon 2" : l
  );
  assert.equal(await readFile(file, "utf8"), body(moved));

  // Without rebase the same drift is refused and says where the line went.
  const third = await door.read("loop.txt");
  await writeFile(file, body(["top", ...moved]));
  const plain = await door.edit("loop.txt", [{
    op: "replace",
    start: anchorFor(third.text, "zeta"),
    lines: ["zeta 2"],
  }]);
  assert.equal(plain.refused, true, plain.text);
  assert.match(plain.text, /moved to line 9 → 9:/);
  assert.equal(await readFile(file, "utf8"), body(["top", ...moved]));
}

function textOf(result: unknown): Answer {
  const r = result as { content: { text: string }[]; isError?: boolean };
  return {
    text: r.content.map((c) => c.text).join("\n"),
    refused: r.isError === true,
  };
}

function mcpDoor(client: Client, close: () => Promise<void>): Door {
  return {
    read: async (path) =>
      textOf(await client.callTool({ name: "read_file", arguments: { path } })),
    edit: async (path, ops, rebase) =>
      textOf(
        await client.callTool({
          name: "edit_file",
          arguments: { path, ops, ...(rebase ? { rebase: true } : {}) },
        }),
      ),
    close,
  };
}

describe("the agent loop through every door", () => {
  let t: TempDir;
  before(async () => {
    t = await tempDir();
  });
  after(() => t.cleanup());

  it("MCP over stdio", { timeout: 60_000 }, async () => {
    const root = join(t.dir, "stdio");
    await mkdir(root);
    const [command, lead] = tsCommand(
      fileURLToPath(new URL("../mcp/_stdio_child.ts", import.meta.url)),
    );
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) {
      if (v !== undefined) env[k] = v;
    }
    const client = new Client({ name: "loop", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command,
        args: [...lead, root],
        cwd: fileURLToPath(new URL("../../", import.meta.url)),
        env,
        stderr: "pipe",
      }),
    );
    const door = mcpDoor(client, () => client.close());
    try {
      await scenario(root, door);
    } finally {
      await door.close();
    }
  });

  it("MCP over streamable HTTP", { timeout: 60_000 }, async () => {
    const root = join(t.dir, "http");
    await mkdir(root);
    const server = await startServer({
      root,
      stateDir: join(t.dir, "http-state"),
      port: 0,
    });
    try {
      const mcp = await connectHttp(`${server.url}/mcp`);
      const door = mcpDoor(mcp.client, () => mcp.close());
      try {
        await scenario(root, door);
      } finally {
        await door.close();
      }
    } finally {
      await server.close();
    }
  });

  it("the command line", { timeout: 120_000 }, async () => {
    const root = join(t.dir, "cli");
    await mkdir(root);
    const env = { HASHLINE_STORE: join(t.dir, "cli-state") };
    const answer = (
      run: { code: number | null; stdout: string; stderr: string },
    ) => ({
      text: run.stdout + run.stderr,
      refused: run.code !== 0,
    });
    const door: Door = {
      read: async (path) =>
        answer(await hashline(["read", path], { cwd: root, env })),
      edit: async (path, ops, rebase) =>
        answer(
          await hashline(["patch", "-", ...(rebase ? ["--rebase"] : [])], {
            cwd: root,
            env,
            input: JSON.stringify({ files: [{ path, ops }] }),
          }),
        ),
      close: () => Promise.resolve(),
    };
    await scenario(root, door);
  });
});
