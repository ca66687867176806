import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import {
  type ChatCompletionsToolCall,
  type ChatCompletionsToolMessage,
  openAiTools,
  type ResponsesToolCall,
} from "../../src/adapters/openai.ts";
import { anchorOf, type Fixture, makeFixture } from "./_fixture.ts";

type ChatMessage =
  | { role: "system" | "user"; content: string }
  | {
    role: "assistant";
    content: string | null;
    tool_calls?: ChatCompletionsToolCall[];
  }
  | ChatCompletionsToolMessage;

/** One scripted assistant turn: a tool call (name, arguments) or a final answer. */
type Turn = { name: string; args: unknown } | { answer: string };

/**
 * The loop a Chat Completions harness runs, with the model replaced by a
 * script that sees the conversation so far.
 */
async function chatLoop(
  hashline: ReturnType<typeof openAiTools>,
  script: ((messages: ChatMessage[]) => Turn | Promise<Turn>)[],
): Promise<ChatMessage[]> {
  const messages: ChatMessage[] = [
    { role: "system", content: hashline.system },
    { role: "user", content: "Make the change." },
  ];
  for (let i = 0; i < script.length; i++) {
    const turn = await script[i](messages);
    if ("answer" in turn) {
      messages.push({ role: "assistant", content: turn.answer });
      break;
    }
    const call: ChatCompletionsToolCall = {
      id: `call_${i}`,
      type: "function",
      function: { name: turn.name, arguments: JSON.stringify(turn.args) },
    };
    messages.push({ role: "assistant", content: null, tool_calls: [call] });
    messages.push(await hashline.runToolCall(call));
  }
  return messages;
}

const lastTool = (messages: ChatMessage[]): string => {
  const m = messages.findLast((x) => x.role === "tool");
  assert.ok(m && m.role === "tool");
  return m.content;
};

describe("OpenAI function-tool adapter", () => {
  let fx: Fixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it("with strict: false, gives both APIs' tool JSON with the registry's schemas and names", async () => {
    fx = await makeFixture({});
    const hashline = openAiTools(fx.registry, { strict: false });
    const names = fx.registry.tools.map((t) => t.name);
    assert.deepEqual(hashline.chatTools.map((t) => t.function.name), names);
    assert.deepEqual(hashline.responsesTools.map((t) => t.name), names);
    for (const [i, t] of hashline.chatTools.entries()) {
      assert.equal(t.type, "function");
      assert.equal(t.function.parameters, fx.registry.tools[i].inputSchema);
      assert.equal(t.function.parameters.type, "object");
      assert.equal(hashline.responsesTools[i].type, "function");
      assert.equal(hashline.responsesTools[i].strict, false);
      assert.equal(
        hashline.responsesTools[i].description,
        fx.registry.tools[i].description,
      );
    }
    assert.equal(hashline.system, fx.registry.systemPrompt);
    // Plain JSON: what a client would send survives a round trip unchanged.
    assert.deepEqual(
      JSON.parse(JSON.stringify(hashline.chatTools)),
      hashline.chatTools,
    );
  });

  it("a Chat Completions loop reads, is refused on a stale anchor, resends from the refusal, and the bytes land", async () => {
    fx = await makeFixture({
      "app.ts": "export const a = 1;\nexport const b = 2;\n",
    });
    const f = fx;
    const messages = await chatLoop(openAiTools(f.registry), [
      () => ({ name: "read_file", args: { path: "app.ts" } }),
      async (m) => {
        const stale = anchorOf(lastTool(m), "export const b = 2;");
        await f.write("app.ts", "export const a = 1;\nexport const b = 3;\n");
        return {
          name: "edit_file",
          args: {
            path: "app.ts",
            ops: [{
              op: "replace",
              start: stale,
              lines: ["export const b = 20;"],
            }],
          },
        };
      },
      (m) => {
        const refusal = lastTool(m);
        assert.match(
          refusal,
          /^Error STALE_ANCHOR: Rejected — nothing written\./,
        );
        return {
          name: "edit_file",
          args: {
            patch: `@@ app.ts\n= ${
              anchorOf(refusal, "export const b = 3;")
            }\n~export const b = 30;`,
          },
        };
      },
      (m) => {
        assert.match(lastTool(m), /^Edited app\.ts/m);
        return { answer: "done" };
      },
    ]);
    assert.equal(messages.at(-1)?.content, "done");
    assert.equal(
      await f.read("app.ts"),
      "export const a = 1;\nexport const b = 30;\n",
    );
    const ids = messages.flatMap((m) =>
      m.role === "tool" ? [m.tool_call_id] : []
    );
    assert.deepEqual(ids, ["call_0", "call_1", "call_2"]);
  });

  it("runs Responses function_call items and answers function_call_output items", async () => {
    fx = await makeFixture({ "a.txt": "x\ny\n" });
    const hashline = openAiTools(fx.registry);
    const read: ResponsesToolCall = {
      type: "function_call",
      call_id: "fc_1",
      name: "read_file",
      arguments: '{"path":"a.txt"}',
    };
    const shown = await hashline.runToolCall(read);
    assert.equal(shown.type, "function_call_output");
    assert.equal(shown.call_id, "fc_1");
    const edited = await hashline.runToolCall({
      type: "function_call",
      call_id: "fc_2",
      name: "edit_file",
      arguments: JSON.stringify({
        path: "a.txt",
        ops: [{
          op: "insert_after",
          anchor: anchorOf(shown.output, "y"),
          lines: ["z"],
        }],
      }),
    });
    assert.match(edited.output, /^Edited a\.txt \(\+1 -0\)/m);
    assert.equal(await fx.read("a.txt"), "x\ny\nz\n");
  });

  it("the str_replace edit format goes through the same loop", async () => {
    fx = await makeFixture({ "n.md": "alpha\nbeta\n" }, "str_replace");
    const f = fx;
    const hashline = openAiTools(f.registry, { strict: false });
    const edit = hashline.chatTools.find((t) =>
      t.function.name === "edit_file"
    );
    assert.ok(edit);
    assert.deepEqual(
      (edit.function.parameters.required as string[]).toSorted(),
      ["new_string", "old_string", "path"],
    );
    await chatLoop(hashline, [
      () => ({ name: "read_file", args: { path: "n.md" } }),
      (m) => {
        assert.match(lastTool(m), /^ *2\tbeta$/m);
        return {
          name: "edit_file",
          args: { path: "n.md", old_string: "beta", new_string: "gamma" },
        };
      },
      (m) => {
        assert.doesNotMatch(lastTool(m), /^Error/);
        return { answer: "ok" };
      },
    ]);
    assert.equal(await f.read("n.md"), "alpha\ngamma\n");
  });

  it("bad JSON arguments, an unknown tool and an unread file come back as tool messages; nothing is written", async () => {
    fx = await makeFixture({ "a.txt": "one\n" });
    const hashline = openAiTools(fx.registry);
    const bad = await hashline.runToolCall({
      id: "c1",
      type: "function",
      function: { name: "edit_file", arguments: '{"path": "a.txt", "ops": [' },
    });
    assert.match(
      bad.content,
      /^Error BAD_INPUT: The arguments of edit_file are not valid JSON/,
    );
    const unknown = await hashline.runToolCall({
      id: "c2",
      type: "function",
      function: { name: "rm_rf", arguments: "{}" },
    });
    assert.match(unknown.content, /^Error UNKNOWN_TOOL:/);
    const unread = await hashline.callTool({
      id: "c3",
      type: "function",
      function: {
        name: "edit_file",
        arguments: JSON.stringify({
          path: "a.txt",
          ops: [{ op: "append", lines: ["two"] }],
        }),
      },
    });
    assert.equal(unread.ok, false);
    assert.equal(!unread.ok && unread.error.code, "NOT_READ");
    assert.equal(await fx.read("a.txt"), "one\n");
  });
});
