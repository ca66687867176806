/**
 * A scripted stand-in for a model, for the model harness's dry run
 * (`model_main.ts --scripted`): no endpoint and no key. It reads the file,
 * checks the read came in the form the run asked for, sends the benchmark's
 * own fix in that form (bare line numbers after a lean read), and answers
 * DONE. Tokens are counted with o200k over what a chat-completions request
 * and answer would carry, so the read forms compare as a model would pay.
 *
 * @module
 */
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { leanPatchText } from "./appliers.ts";
import { buildFix } from "./fixes.ts";
import type { Message, ModelReply, ModelTurn, Respond } from "./model.ts";

/** How each read form shows line 1: `1:HH|…` or `1|…`. */
const FIRST_LINE = {
  hash: /^1:[0-9a-f]{2}\|/m,
  lean: /^1\|/m,
} as const;

function reply(turn: ModelTurn, message: Message): ModelReply {
  const said = message.tool_calls
    ? message.tool_calls.map((c) => c.function.arguments).join("\n")
    : message.content ?? "";
  return {
    message,
    outputTokens: encode(said).length,
    inputTokens: encode(
      JSON.stringify({ messages: turn.messages, tools: turn.tools }),
    ).length,
  };
}

function call(name: string, args: unknown): Message {
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

/**
 * The scripted stand-in: read, edit with the task's fix, DONE. A read in
 * the wrong form (or a refused edit) ends the run with a plain answer, so
 * the file stays unchanged and the run scores as such.
 *
 * @returns A {@link Respond} for `runModelBench`.
 */
export function scriptedModel(): Respond {
  return (turn) => {
    const tools = turn.messages.filter((m) => m.role === "tool");
    const { task, format, read } = turn;
    if (tools.length === 0) {
      return Promise.resolve(
        reply(turn, call("read_file", { path: task.path })),
      );
    }
    const last = tools[tools.length - 1].content ?? "";
    if (tools.length === 1) {
      const form = format === "str_replace" ? null : FIRST_LINE[read];
      if (form && !form.test(last)) {
        return Promise.resolve(reply(turn, {
          role: "assistant",
          content: `The read did not come as ${read} lines.`,
        }));
      }
      const fix = buildFix(task);
      const edit = format === "str_replace"
        ? {
          path: task.path,
          old_string: fix.oldString,
          new_string: fix.newString,
        }
        : {
          patch: read === "lean"
            ? leanPatchText(fix.hashlineText)
            : fix.hashlineText,
        };
      return Promise.resolve(reply(turn, call("edit_file", edit)));
    }
    return Promise.resolve(reply(turn, { role: "assistant", content: "DONE" }));
  };
}
