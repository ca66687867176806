/**
 * Two MCP-over-HTTP clients sharing one server: each is recorded under a
 * one-way label, never its transport session id; neither can take the
 * other's session (a label sent back is refused, a transport id sent as a
 * name is a session of its own), edit with the other's reads, or undo the
 * other's edit without reading the lines first.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { call } from "../http/_helpers.ts";
import { makeTree } from "../workspace/_helpers.ts";
import { connectHttp, type McpTestClient } from "./_client.ts";

interface Structured {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { text: string }[];
}

async function tool(
  mcp: McpTestClient,
  name: string,
  args: Record<string, unknown>,
): Promise<Structured> {
  return await mcp.client.callTool({ name, arguments: args }) as Structured;
}

function anchorsOf(text: string): string[] {
  return text.split("\n").filter((l) => /^\d+:/.test(l)).map((l) =>
    l.slice(0, l.indexOf("|"))
  );
}

describe("MCP over HTTP: history stays private per session", () => {
  it(
    "B never sees A's session id, cannot edit with A's reads, and cannot undo A's edit before reading",
    {
      timeout: 60_000,
    },
    async () => {
      const t = await makeTree();
      const file = join(t.root, "a.txt");
      await writeFile(file, "one\ntwo\nthree\n");
      const app = createApp({
        root: t.root,
        stateDir: t.state,
        tools: ["files", "history"],
      });
      const a = await connectHttp("http://localhost/mcp", { app });
      const b = await connectHttp("http://localhost/mcp", { app });
      const clients = [a, b];
      try {
        const read = await tool(a, "read_file", { path: "a.txt" });
        const anchors = anchorsOf(read.structuredContent!.text as string);
        const edited = await tool(a, "edit_file", {
          files: [{
            path: "a.txt",
            ops: [{ op: "replace", start: anchors[1], lines: ["TWO"] }],
          }],
        });
        assert.ok(!edited.isError, edited.content[0].text);
        // The edit's result names its entry, in the text and in the data.
        const entry = edited.structuredContent!.entry as string;
        assert.match(entry, /^h_\d+$/);
        assert.match(edited.content[0].text, new RegExp(`\\b${entry}\\b`));
        const original = "one\nTWO\nthree\n";
        assert.equal(await readFile(file, "utf8"), original);

        // B lists the history: A is shown by label, its transport id nowhere.
        const listed = await tool(b, "edit_history", {});
        const entries = listed.structuredContent!.entries as {
          id: string;
          session: string;
          door: string;
        }[];
        const mine = entries.find((e) => e.id === entry)!;
        assert.match(mine.session, /^mcp-[0-9a-f]{8}$/);
        assert.equal(mine.door, "mcp");
        const shown = await tool(b, "edit_history", { id: entry });
        const aid = a.sessionId!;
        for (const seen of [listed, shown]) {
          assert.ok(!JSON.stringify(seen).includes(aid));
        }
        const http = await call(app, "GET", "/v1/history");
        assert.ok(!JSON.stringify(http.body).includes(aid));
        const pageText = await (await app.request("http://127.0.0.1/")).text();
        assert.ok(!pageText.includes(aid));
        assert.ok(pageText.includes(mine.session));

        // The label sent back as a session name is refused, on /mcp and the API.
        await assert.rejects(
          connectHttp("http://localhost/mcp", {
            app,
            headers: { "hashline-session": mine.session },
          }),
          /BAD_INPUT|400/,
        );
        const taken = await call(app, "POST", "/v1/files/read", {
          path: "a.txt",
        }, { "hashline-session": mine.session });
        assert.equal(taken.status, 400);
        assert.equal(taken.body.error.code, "BAD_INPUT");

        // A's transport id sent as a name is a session of its own: A's reads
        // (and A's edit result) do not count for it.
        const c = await connectHttp("http://localhost/mcp", {
          app,
          headers: { "hashline-session": aid },
        });
        clients.push(c);
        const fresh = anchorsOf(
          edited.structuredContent!.files
            ? (edited.structuredContent!.files as { anchors: string }[])[0]
              .anchors
            : "",
        );
        const stolen = await tool(c, "edit_file", {
          files: [{
            path: "a.txt",
            ops: [{ op: "replace", start: fresh[0], lines: ["STOLEN"] }],
          }],
        });
        assert.equal(stolen.isError, true);
        assert.match(stolen.content[0].text, /has not read/);
        assert.equal(await readFile(file, "utf8"), original);

        // B's undo of A's edit without reading: NOT_READ, nothing written.
        const refused = await tool(b, "undo_edit", { id: entry });
        assert.equal(refused.isError, true);
        assert.match(refused.content[0].text, /has not read line 2/);
        assert.match(refused.content[0].text, /read a\.txt/);
        assert.equal(await readFile(file, "utf8"), original);
        // After reading, the same undo passes, recorded under B's label.
        await tool(b, "read_file", { path: "a.txt" });
        const undone = await tool(b, "undo_edit", { id: entry });
        assert.ok(!undone.isError, undone.content[0].text);
        assert.equal(await readFile(file, "utf8"), "one\ntwo\nthree\n");
        const top = ((await tool(b, "edit_history", { limit: 1 }))
          .structuredContent!.entries as { session: string; undoOf: string }[])[
            0
          ];
        assert.equal(top.undoOf, entry);
        assert.match(top.session, /^mcp-[0-9a-f]{8}$/);
        assert.notEqual(top.session, mine.session);

        // An agent's own edit result counts as read: A undoes its next edit at once.
        const again = await tool(a, "read_file", { path: "a.txt" });
        const more = await tool(a, "edit_file", {
          files: [{
            path: "a.txt",
            ops: [{
              op: "replace",
              start: anchorsOf(again.structuredContent!.text as string)[2],
              lines: ["THREE"],
            }],
          }],
        });
        const own = await tool(a, "undo_edit", {
          id: more.structuredContent!.entry,
        });
        assert.ok(!own.isError, own.content[0].text);
        assert.equal(await readFile(file, "utf8"), "one\ntwo\nthree\n");
      } finally {
        for (const m of clients) await m.close();
        await t.cleanup();
      }
    },
  );
});
