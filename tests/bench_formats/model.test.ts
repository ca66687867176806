// No model is reachable from the test machine, so this drives the model
// harness end to end against a scripted stand-in for an OpenAI-compatible
// endpoint on loopback: real HTTP, the real tool registry and workspace,
// the same checker; only the "model" is a script.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { buildFix } from "../../bench/formats/fixes.ts";
import { leanPatchText } from "../../bench/formats/appliers.ts";
import {
  renderModelTable,
  renderModelTaskTable,
  runModelBench,
} from "../../bench/formats/model.ts";
import { scriptedModel } from "../../bench/formats/model_script.ts";
import { TASK } from "./_fixture.ts";

interface Msg {
  role: string;
  content: string | null;
}
type Script = (messages: Msg[], format: string) => Record<string, unknown>;

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let s = "";
    req.on("data", (c) => (s += c));
    req.on("end", () => resolve(s));
  });
}

function toolCall(name: string, args: unknown): Record<string, unknown> {
  return {
    role: "assistant",
    content: null,
    tool_calls: [{
      id: `call_${name}`,
      type: "function",
      function: { name, arguments: JSON.stringify(args) },
    }],
  };
}

async function withStandIn<T>(
  script: Script,
  run: (url: string, seen: { auth: string[]; reads: string[] }) => Promise<T>,
): Promise<T> {
  const seen = { auth: [] as string[], reads: [] as string[] };
  const server = createServer(async (req, res) => {
    const req_ = JSON.parse(await body(req));
    seen.auth.push(String(req.headers.authorization));
    const messages = req_.messages as Msg[];
    const tool = messages.filter((m) => m.role === "tool").at(-1);
    if (tool && messages.filter((m) => m.role === "tool").length === 1) {
      seen.reads.push(tool.content ?? "");
    }
    const format = (req_.tools as { function: { description: string } }[])
        .some((t) =>
          t.function.description.includes("exact string replacement")
        )
      ? "str_replace"
      : "hashline";
    const message = script(messages, format);
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({
        choices: [{ message }],
        usage: { completion_tokens: 10 * messages.length },
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  try {
    return await run(`http://127.0.0.1:${port}/v1`, seen);
  } finally {
    await new Promise((r) => server.close(r));
  }
}

const fix = buildFix(TASK);
/**
 * Reads, then sends the fix in the registry's format (bare line numbers
 * after a lean read), then says DONE.
 */
const good: Script = (messages, format) => {
  const tools = messages.filter((m) => m.role === "tool");
  if (tools.length === 0) return toolCall("read_file", { path: TASK.path });
  if (tools.length === 1) {
    const lean = /^1\|/m.test(tools[0].content ?? "");
    return format === "hashline"
      ? toolCall("edit_file", {
        patch: lean ? leanPatchText(fix.hashlineText) : fix.hashlineText,
      })
      : toolCall("edit_file", {
        path: TASK.path,
        old_string: fix.oldString,
        new_string: fix.newString,
      });
  }
  return { role: "assistant", content: "DONE" };
};

describe("the model harness against a scripted stand-in endpoint", () => {
  it(
    "runs each format and hashline read form through the tool registry and scores the file on disk",
    {
      timeout: 30_000,
    },
    async () => {
      await withStandIn(good, async (url, seen) => {
        const runs = await runModelBench({
          url,
          key: "k",
          model: "scripted",
          tasks: [TASK],
        });
        assert.deepEqual(
          runs.map((r) => [
            r.format,
            r.read,
            r.outcome,
            r.turns,
            r.outputTokens,
            r.failedCalls,
          ]),
          [
            ["hashline", "hash", "CORRECT", 3, 20 + 40 + 60, 0],
            ["hashline", "lean", "CORRECT", 3, 120, 0],
            ["str_replace", "hash", "CORRECT", 3, 120, 0],
          ],
        );
        assert.ok(seen.auth.every((a) => a === "Bearer k"));
        // The read tool follows the format and read form: anchors, bare
        // numbers (lean), and numbers for str_replace.
        assert.match(seen.reads[0], /^1:[0-9a-f]{2}\|const v1 = 1;/m);
        assert.match(seen.reads[1], /^1\|const v1 = 1;/m);
        assert.doesNotMatch(seen.reads[2], /^1:[0-9a-f]{2}\|/m);
        const summary = renderModelTable(runs);
        assert.match(
          summary,
          /\| hashline, `LINE:HH\\\|` read +\| +1 \| +1 \|/,
        );
        assert.match(
          summary,
          /\| hashline, lean `LINE\\\|` read +\| +1 \| +1 \|/,
        );
        assert.match(
          renderModelTaskTable(runs),
          /\| comparison-01 +\| +CORRECT /,
        );
      });
    },
  );

  it(
    "scores an edit that lands elsewhere WRONG and a run that never edits as unchanged",
    { timeout: 30_000 },
    async () => {
      const wrong: Script = (messages) => {
        const tools = messages.filter((m) => m.role === "tool").length;
        if (tools === 0) return toolCall("read_file", { path: TASK.path });
        if (tools === 1) {
          return toolCall("edit_file", {
            path: TASK.path,
            old_string: "const v5 = 5;",
            new_string: "const v5 = 6;",
          });
        }
        return { role: "assistant", content: "DONE" };
      };
      await withStandIn(wrong, async (url) => {
        const [r] = await runModelBench({
          url,
          model: "scripted",
          tasks: [TASK],
          formats: ["str_replace"],
        });
        assert.equal(r.outcome, "WRONG");
      });
      await withStandIn(
        () => ({ role: "assistant", content: "I cannot." }),
        async (url) => {
          const [r] = await runModelBench({
            url,
            model: "scripted",
            tasks: [TASK],
            formats: ["hashline"],
          });
          assert.deepEqual([r.outcome, r.turns], ["REFUSED", 1]);
        },
      );
    },
  );

  it("reports a refused edit as a failed call and stops at the turn limit", {
    timeout: 30_000,
  }, async () => {
    const stale: Script = (messages) =>
      messages.filter((m) => m.role === "tool").length === 0
        ? toolCall("read_file", { path: TASK.path })
        : toolCall("edit_file", { patch: "@@ demo/file.ts\n= 20:00\n~x\n" });
    await withStandIn(stale, async (url) => {
      const [r] = await runModelBench({
        url,
        model: "scripted",
        tasks: [TASK],
        formats: ["hashline"],
        maxTurns: 3,
      });
      assert.deepEqual([r.outcome, r.turns], ["REFUSED", 3]);
      assert.ok(r.failedCalls >= 1);
    });
  });

  it(
    "runs offline against the scripted stand-in, the lean read costing fewer input tokens",
    {
      timeout: 30_000,
    },
    async () => {
      const runs = await runModelBench({
        model: "scripted",
        tasks: [TASK],
        respond: scriptedModel(),
      });
      assert.deepEqual(
        runs.map((r) => [r.format, r.read, r.outcome, r.failedCalls]),
        [
          ["hashline", "hash", "CORRECT", 0],
          ["hashline", "lean", "CORRECT", 0],
          ["str_replace", "hash", "CORRECT", 0],
        ],
      );
      assert.ok(runs[1].inputTokens < runs[0].inputTokens);
      const [lean] = await runModelBench({
        model: "scripted",
        tasks: [TASK],
        formats: ["hashline"],
        reads: ["lean"],
        respond: scriptedModel(),
      });
      assert.deepEqual([lean.read, lean.outcome], ["lean", "CORRECT"]);
    },
  );

  it("says what it needs when given neither an endpoint nor a stand-in", {
    timeout: 10_000,
  }, async () => {
    const [r] = await runModelBench({
      model: "m",
      tasks: [TASK],
      formats: ["hashline"],
      reads: ["hash"],
    });
    assert.match(r.error ?? "", /needs url .* or respond/);
  });
});
