/**
 * Undo of file operations through the agent doors (docs/history.md, "Undo
 * through an agent's door is an edit"): undoing a rename moves the file
 * back, so the session needs a read of it under the name the entry left it
 * (`NOT_READ` otherwise, naming that file); undoing a delete puts a file
 * back where none stands and, like a create, needs no read. The
 * supervisor's doors need no read for either.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { createToolRegistry } from "../../src/tools/registry.ts";
import { makeTree, snapshot, type Tree } from "../workspace/_helpers.ts";
import { connectHttp } from "../mcp/_client.ts";

const TEXT = "one\ntwo\nthree\n";

/** One agent session's calls, whatever the door. */
interface Agent {
  call(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ ok: boolean; code?: string; text: string; entry?: string }>;
}

/** A session of the tool registry over `t`. */
function registryAgent(t: Tree, session: string): Agent {
  const tools = createToolRegistry({
    workspace: t.open({ door: "mcp" }),
    tools: ["files", "history"],
  });
  return {
    async call(name, args) {
      const r = await tools.call(name, args, { session });
      if (!r.ok) {
        return { ok: false, code: r.error.code, text: r.error.message };
      }
      const data = r.data as { entry?: string };
      return { ok: true, text: r.text, entry: data?.entry };
    },
  };
}

/** Both sessions' agents, and a way to end them. */
interface Agents {
  alice: Agent;
  bob: Agent;
  close(): Promise<void>;
}

function registryAgents(t: Tree): Promise<Agents> {
  return Promise.resolve({
    alice: registryAgent(t, "alice"),
    bob: registryAgent(t, "bob"),
    close: () => Promise.resolve(),
  });
}

/** Two MCP clients, each its own session (by the `Hashline-Session` header). */
async function mcpAgents(t: Tree): Promise<Agents> {
  const app = createApp({
    root: t.root,
    stateDir: t.state,
    tools: ["files", "history"],
  });
  const connect = async (session: string) => {
    const mcp = await connectHttp("http://localhost/mcp", {
      app,
      headers: { "hashline-session": session },
    });
    const agent: Agent = {
      async call(name, args) {
        const r = await mcp.tool(name, args);
        // MCP words a refusal for the model, without its code.
        const code = r.isError
          ? /has not read/.test(r.text) ? "NOT_READ" : "OTHER"
          : undefined;
        const entry = /\bh_\d+\b/.exec(r.text)?.[0];
        return {
          ok: !r.isError,
          text: r.text,
          ...(code ? { code } : {}),
          ...(entry ? { entry } : {}),
        };
      },
    };
    return { agent, close: () => mcp.close() };
  };
  const a = await connect("alice");
  const b = await connect("bob");
  return {
    alice: a.agent,
    bob: b.agent,
    close: async () => {
      await a.close();
      await b.close();
    },
  };
}

for (
  const [door, agentsOf] of [
    ["tool registry", registryAgents],
    ["MCP", mcpAgents],
  ] as const
) {
  describe(`undo of file operations through the ${door}`, () => {
    it("undo of a rename needs a read of the file under its new name", {
      timeout: 60_000,
    }, async () => {
      const t = await makeTree();
      const agents = await agentsOf(t);
      try {
        await writeFile(join(t.root, "a.txt"), TEXT);
        const before = await snapshot(t.root);
        const { alice, bob } = agents;
        assert.ok((await alice.call("read_file", { path: "a.txt" })).ok);
        const moved = await alice.call("edit_file", {
          patch: "@@ a.txt -> sub/b.txt\n",
        });
        assert.ok(moved.ok, moved.text);
        const id = moved.entry!;
        assert.match(id, /^h_\d+$/);
        const after = await snapshot(t.root);

        // Bob has read nothing: neither the undo nor its dry run goes through.
        for (const args of [{ id }, { id, dryRun: true }]) {
          const refused = await bob.call("undo_edit", args);
          assert.equal(refused.ok, false, refused.text);
          assert.equal(refused.code, "NOT_READ", refused.text);
          assert.match(refused.text, /read sub\/b\.txt/);
          assert.deepEqual(await snapshot(t.root), after, "nothing moved");
        }
        // A read of the file where it stands now lets it through.
        assert.ok((await bob.call("read_file", { path: "sub/b.txt" })).ok);
        const done = await bob.call("undo_edit", { id });
        assert.ok(done.ok, done.text);
        assert.deepEqual(
          await snapshot(t.root),
          before,
          "a.txt is back byte-exact, and the folder the rename made is gone",
        );

        // The supervisor's door (the library, no agent session) needs no read.
        assert.ok((await alice.call("read_file", { path: "a.txt" })).ok);
        const again = await alice.call("edit_file", {
          patch: "@@ a.txt -> c.txt\n",
        });
        assert.ok(again.ok, again.text);
        await t.open({ session: "sup" }).undo(again.entry!);
        assert.deepEqual(await snapshot(t.root), before);
      } finally {
        await agents.close();
        await t.cleanup();
      }
    });

    it(
      "undo of a delete puts the file back and needs no read; undo of a create needs the file read",
      {
        timeout: 60_000,
      },
      async () => {
        const t = await makeTree();
        const agents = await agentsOf(t);
        try {
          await writeFile(join(t.root, "gone.txt"), TEXT);
          const before = await snapshot(t.root);
          const { alice, bob } = agents;
          assert.ok((await alice.call("read_file", { path: "gone.txt" })).ok);
          const removed = await alice.call("edit_file", {
            patch: "@@- gone.txt\n",
          });
          assert.ok(removed.ok, removed.text);
          assert.deepEqual([...(await snapshot(t.root)).keys()], []);
          const done = await bob.call("undo_edit", { id: removed.entry! });
          assert.ok(done.ok, done.text);
          assert.deepEqual(
            await snapshot(t.root),
            before,
            "byte-exact, mode too",
          );

          // Undo of a create removes a file, so it needs every line read.
          const made = await alice.call("edit_file", {
            patch: "@@+ new.txt\n+\n~hello\n",
          });
          assert.ok(made.ok, made.text);
          const grown = await snapshot(t.root);
          const refused = await bob.call("undo_edit", { id: made.entry! });
          assert.equal(refused.code, "NOT_READ", refused.text);
          assert.deepEqual(await snapshot(t.root), grown);
          assert.ok((await bob.call("read_file", { path: "new.txt" })).ok);
          const gone = await bob.call("undo_edit", { id: made.entry! });
          assert.ok(gone.ok, gone.text);
          assert.deepEqual(await snapshot(t.root), before);
        } finally {
          await agents.close();
          await t.cleanup();
        }
      },
    );
  });
}
