/**
 * Tools of your own (docs/mcp.md "Tools of your own"): `extraTools` on the
 * registry and `createApp`, served at `/mcp` after the sets' tools, with
 * what the MCP layer does for them: a call from a client that lacks a
 * declared capability is refused with -32021 (HTTP 400) before the handler
 * runs, a question goes out as an input-required result and the answer
 * comes back to the handler, and log messages reach only a client that
 * asked for their level.
 */
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { createApp, type HashlineApp } from "../../src/http/app.ts";
import { mcpServer } from "../../src/mcp/_server.ts";
import { createToolRegistry } from "../../src/tools/registry.ts";
import type { ToolCallOptions, ToolDefinition } from "../../src/tools/mod.ts";
import { connectHttp } from "./_client.ts";

const MODERN = "2026-07-28";
const QUIET = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Every handler run, to see that a refused call never reached one. */
const runs: string[] = [];

function tool(
  name: string,
  run: (call?: ToolCallOptions) => Promise<string>,
  clientCapabilities?: string[],
): ToolDefinition {
  return {
    name,
    title: name,
    description: `The ${name} tool.`,
    inputSchema: { type: "object", properties: {} },
    outputSchema: {
      type: "object",
      properties: { said: { type: "string" } },
      required: ["said"],
    },
    annotations: QUIET,
    clientCapabilities,
    handler: async (_input, call) => {
      runs.push(name);
      const said = await run(call);
      return { ok: true, text: said, data: { said } };
    },
  };
}

const ask = tool("ask", async (call) => {
  const answer = await call!.client!.elicit("Go on?", {
    type: "object",
    properties: { goOn: { type: "boolean" } },
    required: ["goOn"],
  });
  return `${answer.action} ${JSON.stringify(answer.content ?? {})}`;
}, ["elicitation"]);

const chatty = tool("chatty", async (call) => {
  for (const level of ["debug", "info", "warning"] as const) {
    await call!.client!.log(level, `a ${level} message`);
  }
  return "logged";
});

const sampler = tool("sampler", () => Promise.resolve("ran"), ["sampling"]);

interface Frame {
  id?: number;
  method?: string;
  params?: { level?: string };
  result?: Record<string, unknown>;
  error?: { code: number; data?: { requiredCapabilities?: unknown } };
}

/** One 2026-07-28 `tools/call` as it goes over the wire; every frame of the answer. */
async function call2026(
  app: HashlineApp,
  name: string,
  meta: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<{ status: number; frames: Frame[] }> {
  const res = await app.fetch(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/call",
        "mcp-name": name,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: {
          name,
          arguments: {},
          _meta: {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
            ...meta,
          },
          ...extra,
        },
      }),
    }),
  );
  const text = await res.text();
  const frames = (res.headers.get("content-type") ?? "").includes(
      "text/event-stream",
    )
    ? text.split("\n").filter((l) => l.startsWith("data:")).map((l) =>
      JSON.parse(l.slice(5))
    )
    : [JSON.parse(text)];
  return { status: res.status, frames };
}

const caps = (c: Record<string, unknown>) => ({
  "io.modelcontextprotocol/clientCapabilities": c,
});

describe("extraTools at /mcp", () => {
  let root: string;
  let app: HashlineApp;
  let before_: Map<string, string>;
  const snapshot = async () =>
    new Map(
      await Promise.all(
        (await readdir(root)).filter((f) => f !== ".hashline").map(async (
          f,
        ) => [f, await readFile(join(root, f), "utf8")] as [string, string]),
      ),
    );
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "hashline-extra-"));
    await writeFile(join(root, "a.txt"), "one\ntwo\n");
    app = createApp({ root, extraTools: [ask, chatty, sampler] });
    before_ = await snapshot();
  });
  after(async () => {
    assert.deepEqual(await snapshot(), before_, "no file changed");
    await rm(root, { recursive: true, force: true });
  });

  it("lists them after the default tools", { timeout: 30_000 }, async () => {
    const client = await connectHttp("http://127.0.0.1/mcp", { app });
    try {
      const { tools } = await client.client.listTools();
      const names = tools.map((t) => t.name);
      assert.deepEqual(names.slice(-3), ["ask", "chatty", "sampler"]);
      assert.ok(names.includes("edit_file"));
    } finally {
      await client.close();
    }
  });

  it(
    "refuses a client without the capability with -32021, HTTP 400, before the handler",
    {
      timeout: 30_000,
    },
    async () => {
      runs.length = 0;
      const { status, frames } = await call2026(app, "sampler", {});
      assert.equal(status, 400);
      assert.equal(frames[0].id, 9);
      assert.equal(frames[0].error?.code, -32021);
      assert.deepEqual(frames[0].error?.data?.requiredCapabilities, {
        sampling: {},
      });
      assert.deepEqual(runs, []);
      const ok = await call2026(app, "sampler", caps({ sampling: {} }));
      assert.equal(ok.status, 200);
      assert.deepEqual(ok.frames[0].result?.structuredContent, { said: "ran" });
    },
  );

  it("asks with an input-required result, then takes the answer (2026-07-28)", {
    timeout: 30_000,
  }, async () => {
    const first = await call2026(app, "ask", caps({ elicitation: {} }));
    assert.equal(first.status, 200);
    assert.equal(first.frames.length, 1, "one frame: no request on the stream");
    const result = first.frames[0].result as {
      resultType: string;
      inputRequests: Record<string, { method: string; params: unknown }>;
    };
    assert.equal(result.resultType, "input_required");
    const [[key, request]] = Object.entries(result.inputRequests);
    assert.equal(request.method, "elicitation/create");
    const answered = await call2026(app, "ask", caps({ elicitation: {} }), {
      inputResponses: {
        [key]: { action: "accept", content: { goOn: true } },
      },
    });
    assert.deepEqual(answered.frames[0].result?.structuredContent, {
      said: 'accept {"goOn":true}',
    });
  });

  it("sends log messages only at the level a 2026-07-28 request names", {
    timeout: 30_000,
  }, async () => {
    const silent = await call2026(app, "chatty", {});
    assert.deepEqual(silent.frames.map((f) => f.method ?? "result"), [
      "result",
    ]);
    const info = await call2026(app, "chatty", {
      "io.modelcontextprotocol/logLevel": "info",
    });
    assert.deepEqual(
      info.frames.filter((f) => f.method === "notifications/message").map((
        f,
      ) => f.params?.level),
      ["info", "warning"],
    );
  });

  it("refuses a question over a 2025-era HTTP session (JSON answers) at once", {
    timeout: 30_000,
  }, async () => {
    const client = await connectHttp("http://127.0.0.1/mcp", {
      app,
      capabilities: { elicitation: {} },
    });
    try {
      const result = await client.client.callTool({
        name: "ask",
        arguments: {},
      });
      assert.equal(result.isError, true);
      assert.equal(
        (result.structuredContent as { error: { code: string } }).error.code,
        "NOT_AVAILABLE",
      );
      assert.match(
        (result.content as { text: string }[])[0].text,
        /over stdio, or with protocol 2026-07-28/,
      );
    } finally {
      await client.close();
    }
  });
});

describe("extraTools with a 2025-era client on a stream", () => {
  /** The MCP layer over an in-memory connection, as stdio serves it. */
  async function connect(): Promise<Client> {
    const registry = createToolRegistry({ extraTools: [ask, chatty] });
    const server = mcpServer(registry, () => ({
      session: "s",
      registry,
      note: "",
    }));
    const [near, far] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "t", version: "1" }, {
      capabilities: { elicitation: {} },
    });
    client.setRequestHandler("elicitation/create", () => ({
      action: "accept",
      content: { goOn: false },
    }));
    await Promise.all([server.connect(far), client.connect(near)]);
    return client;
  }

  it("asks with elicitation/create and the handler gets the answer", {
    timeout: 30_000,
  }, async () => {
    const client = await connect();
    try {
      const result = await client.callTool({ name: "ask", arguments: {} });
      assert.deepEqual(result.structuredContent, {
        said: 'accept {"goOn":false}',
      });
    } finally {
      await client.close();
    }
  });

  it("sends log messages at the level logging/setLevel names", {
    timeout: 30_000,
  }, async () => {
    const client = await connect();
    const levels: string[] = [];
    client.setNotificationHandler("notifications/message", (n) => {
      levels.push(n.params.level);
    });
    try {
      await client.setLoggingLevel("warning");
      await client.callTool({ name: "chatty", arguments: {} });
      await client.setLoggingLevel("info");
      await client.callTool({ name: "chatty", arguments: {} });
      assert.deepEqual(levels, ["warning", "info", "warning"]);
    } finally {
      await client.close();
    }
  });
});

describe("extraTools on the registry", () => {
  it("refuses a name already taken, or a malformed tool, with a TypeError", () => {
    const workspace = () => Promise.reject(new Error("never opened"));
    assert.throws(
      () =>
        createToolRegistry({
          workspace,
          extraTools: [{ ...sampler, name: "read_file" }],
        }),
      { name: "TypeError", message: /"read_file" is already a tool/ },
    );
    assert.throws(
      () => createToolRegistry({ extraTools: [sampler, sampler] }),
      /"sampler" is already a tool/,
    );
    assert.throws(
      () =>
        createToolRegistry({
          extraTools: [{ ...sampler, inputSchema: { type: "string" } }],
        }),
      /inputSchema of type "object"/,
    );
    assert.throws(
      () => createToolRegistry({ extraTools: "ask" as unknown as [] }),
      /extraTools must be a list/,
    );
  });

  it("calls them like its own tools, with no client outside MCP", async () => {
    const seen: (ToolCallOptions | undefined)[] = [];
    const probe = tool("probe", (call) => {
      seen.push(call);
      return Promise.resolve("ok");
    });
    const registry = createToolRegistry({ extraTools: [probe] });
    assert.deepEqual(registry.tools.map((t) => t.name), ["probe"]);
    const result = await registry.call("probe", {});
    assert.ok(result.ok);
    assert.equal(seen[0]?.client, undefined);
  });
});
