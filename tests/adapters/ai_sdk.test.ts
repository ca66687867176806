import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { aiSdkTools } from "../../src/adapters/ai_sdk.ts";
import { anchorOf, type Fixture, makeFixture } from "./_fixture.ts";

type Prompt = MockLanguageModelV3["doGenerateCalls"][number]["prompt"];
type Step = { toolName: string; input: unknown } | { text: string };

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** The tool results the model has been shown so far, in order. */
function toolOutputs(prompt: Prompt): { type: string; value: unknown }[] {
  const out: { type: string; value: unknown }[] = [];
  for (const message of prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-result") {
        out.push(part.output as { type: string; value: unknown });
      }
    }
  }
  return out;
}

/**
 * A model that plays a script: each step sees every tool output so far and
 * answers with one tool call or with text.
 */
function scriptedModel(
  script:
    ((seen: { type: string; value: unknown }[]) => Step | Promise<Step>)[],
): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const move = await script[step++](toolOutputs(prompt));
      const content = "text" in move
        ? [{ type: "text" as const, text: move.text }]
        : [{
          type: "tool-call" as const,
          toolCallId: `call_${step}`,
          toolName: move.toolName,
          input: JSON.stringify(move.input),
        }];
      return {
        content,
        finishReason: {
          unified: "text" in move ? "stop" as const : "tool-calls" as const,
          raw: undefined,
        },
        usage,
        warnings: [],
      };
    },
  });
}

const last = (seen: { type: string; value: unknown }[]) => {
  const output = seen.at(-1);
  assert.ok(output, "the model was shown a tool result");
  return { type: output.type, text: String(output.value) };
};

describe("AI SDK adapter", () => {
  let fx: Fixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it("generateText reads, is refused on a stale anchor, resends from the refusal, and the bytes land", async () => {
    fx = await makeFixture({ "app.py": "def greet(name):\n    return name\n" });
    const f = fx;
    const { tools, system } = aiSdkTools(f.registry);
    let staleAnchor = "";
    const model = scriptedModel([
      () => ({ toolName: "read_file", input: { path: "app.py" } }),
      async (seen) => {
        const read = last(seen);
        assert.equal(read.type, "text");
        staleAnchor = anchorOf(read.text, "    return name");
        await f.write("app.py", "def greet(name):\n    return name.strip()\n");
        return {
          toolName: "edit_file",
          input: {
            path: "app.py",
            ops: [{
              op: "replace",
              start: staleAnchor,
              lines: ['    return f"hi {name}"'],
            }],
          },
        };
      },
      (seen) => {
        const refusal = last(seen);
        assert.equal(refusal.type, "error-text");
        assert.match(refusal.text, /^Rejected — nothing written\./);
        return {
          toolName: "edit_file",
          input: {
            path: "app.py",
            ops: [{
              op: "replace",
              start: anchorOf(refusal.text, "    return name.strip()"),
              lines: ['    return f"hi {name.strip()}"'],
            }],
          },
        };
      },
      (seen) => {
        assert.equal(last(seen).type, "text");
        assert.match(last(seen).text, /^Edited app\.py/m);
        return { text: "Done." };
      },
    ]);
    const result = await generateText({
      model,
      tools,
      system,
      prompt: "Greet by name.",
      stopWhen: stepCountIs(8),
    });
    assert.equal(result.text, "Done.");
    assert.equal(result.steps.length, 4);
    assert.equal(
      await f.read("app.py"),
      'def greet(name):\n    return f"hi {name.strip()}"\n',
    );
    const sent = model.doGenerateCalls[0].prompt[0];
    assert.equal(sent.role, "system");
    assert.match(String(sent.content), /LINE:HH\|content/);
    const toolNames = (model.doGenerateCalls[0].tools ?? []).map((t) => t.name);
    assert.deepEqual(toolNames, [
      "read_file",
      "edit_file",
      "write_file",
      "list_files",
      "search_files",
    ]);
  });

  it("the str_replace edit format goes through: plain reads, old_string/new_string edits, its own prompt", async () => {
    fx = await makeFixture(
      { "notes.md": "# Notes\nfirst\n" },
      "str_replace",
    );
    const f = fx;
    const { tools, system } = aiSdkTools(f.registry);
    assert.match(system, /exact string replacement/);
    const model = scriptedModel([
      () => ({ toolName: "read_file", input: { path: "notes.md" } }),
      (seen) => {
        assert.match(last(seen).text, /^ *1\t# Notes$/m);
        assert.doesNotMatch(last(seen).text, /\d+:[0-9a-f]{2}\|/);
        return {
          toolName: "edit_file",
          input: {
            path: "notes.md",
            old_string: "first",
            new_string: "second",
          },
        };
      },
      (seen) => {
        assert.equal(last(seen).type, "text");
        return { text: "ok" };
      },
    ]);
    await generateText({
      model,
      tools,
      system,
      prompt: "Change first to second.",
      stopWhen: stepCountIs(5),
    });
    assert.equal(await f.read("notes.md"), "# Notes\nsecond\n");
    const editTool = (model.doGenerateCalls[0].tools ?? []).find((t) =>
      t.name === "edit_file"
    );
    assert.ok(editTool && editTool.type === "function");
    assert.ok(
      "old_string" in
        (editTool.inputSchema as { properties: Record<string, unknown> })
          .properties,
    );
  });

  it("the model is sent each registry schema's properties, and the registry's own schemas stay as they were", async () => {
    fx = await makeFixture({ "a.txt": "one\n" });
    const f = fx;
    const before = JSON.stringify(f.registry.tools.map((t) => t.inputSchema));
    const { tools } = aiSdkTools(f.registry);
    const model = scriptedModel([
      () => ({ text: "nothing to do" }),
      () => ({ text: "still nothing" }),
    ]);
    await generateText({
      model,
      tools,
      prompt: "Hi.",
      stopWhen: stepCountIs(2),
    });
    await generateText({
      model,
      tools,
      prompt: "Hi.",
      stopWhen: stepCountIs(2),
    });
    for (const call of model.doGenerateCalls) {
      const sent = call.tools ?? [];
      assert.equal(sent.length, f.registry.tools.length);
      for (const [i, t] of sent.entries()) {
        assert.ok(t.type === "function");
        const registryProps = (f.registry.tools[i].inputSchema as {
          properties: Record<string, unknown>;
        }).properties;
        assert.deepEqual(
          Object.keys((t.inputSchema as { properties: object }).properties),
          Object.keys(registryProps),
        );
      }
    }
    assert.equal(
      JSON.stringify(f.registry.tools.map((t) => t.inputSchema)),
      before,
    );
  });

  it("bad input is refused back to the model and leaves the file as it was", async () => {
    fx = await makeFixture({ "a.txt": "one\n" });
    const f = fx;
    const { tools } = aiSdkTools(f.registry);
    const out = await tools.edit_file.execute!(
      { path: "a.txt", ops: [{ op: "replace", start: "1:zz", lines: ["x"] }] },
      { toolCallId: "c1", messages: [] } as never,
    );
    assert.equal(out.ok, false);
    assert.equal(await f.read("a.txt"), "one\n");
  });
});
