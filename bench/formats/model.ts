/**
 * The model harness: the benchmark's tasks run against any OpenAI-compatible
 * chat-completions endpoint, through this project's tool registry over a
 * real workspace, scored with the same checker. Per task, edit format and
 * read form (hashline's default `LINE:HH|` read, and the lean `LINE|` read
 * whose ops name lines by bare number) it reports success, input and output
 * tokens and turns, side by side.
 *
 * @module
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createToolRegistry, openWorkspace } from "../../mod.ts";
import { type Outcome, score } from "./checker.ts";
import { buildFix } from "./fixes.ts";
import type { Task } from "./tasks.ts";
import { mean, median, num, pct, table } from "./_stats.ts";

/** The registry's edit formats. */
export const MODEL_FORMATS = ["hashline", "str_replace"] as const;

/** One registry edit format. */
export type ModelFormat = typeof MODEL_FORMATS[number];

/**
 * Hashline's read forms (the registry's `anchors`): `LINE:HH|content`, and
 * the lean `LINE|content` after which ops name lines by bare number.
 * `str_replace` has its own numbered read and runs once, as `hash`.
 */
export const READ_FORMS = ["hash", "lean"] as const;

/** One read form. */
export type ReadForm = typeof READ_FORMS[number];

/** One conversation's turn: the request, and the task it serves. */
export interface ModelTurn {
  /** The conversation so far. */
  messages: Message[];
  /** The tools offered, in the chat-completions shape. */
  tools: unknown[];
  /** The task. */
  task: Task;
  /** The edit format. */
  format: ModelFormat;
  /** The read form. */
  read: ReadForm;
}

/** The model's answer to one turn, with its token usage. */
export interface ModelReply {
  /** The assistant message. */
  message: Message;
  /** Output (completion) tokens. */
  outputTokens: number;
  /** Input (prompt) tokens. */
  inputTokens: number;
}

/** Answers one turn (the endpoint, or a scripted stand-in). */
export type Respond = (turn: ModelTurn) => Promise<ModelReply>;

/** Where the model is, and what to run. */
export interface ModelBenchOptions {
  /** Base URL of the API (`…/v1`); `/chat/completions` is appended. */
  url?: string;
  /** Bearer key (omitted when empty). */
  key?: string;
  /** Model name. */
  model: string;
  /** The tasks. */
  tasks: readonly Task[];
  /** Formats to run (default both). */
  formats?: readonly ModelFormat[];
  /** Hashline read forms to run (default both). */
  reads?: readonly ReadForm[];
  /** Answers turns instead of the endpoint (a scripted stand-in; `url` is then not used). */
  respond?: Respond;
  /** Requests per task before giving up (default 8). */
  maxTurns?: number;
  /** Progress lines. */
  log?: (line: string) => void;
}

/** One task's run in one format. */
export interface ModelRun {
  /** Task id. */
  task: string;
  /** Edit format. */
  format: ModelFormat;
  /** Read form (`hash` for `str_replace`, whose read is its own). */
  read: ReadForm;
  /** CORRECT: the file is the fixed file; REFUSED: unchanged; WRONG: anything else. */
  outcome: Outcome;
  /** Sum of `usage.completion_tokens` over the task's requests. */
  outputTokens: number;
  /** Sum of `usage.prompt_tokens` over the task's requests. */
  inputTokens: number;
  /** Requests made. */
  turns: number;
  /** Tool calls that failed (refused or bad input). */
  failedCalls: number;
  /** Why the run stopped early, if it did. */
  error?: string;
}

/** A tool call in the chat-completions shape. */
export interface ToolCall {
  /** Call id. */
  id: string;
  /** Always `function`. */
  type: "function";
  /** Tool name and JSON arguments. */
  function: { name: string; arguments: string };
}

/** A chat-completions message. */
export interface Message {
  /** Who speaks. */
  role: "system" | "user" | "assistant" | "tool";
  /** Text. */
  content: string | null;
  /** The assistant's tool calls. */
  tool_calls?: ToolCall[];
  /** The call a tool message answers. */
  tool_call_id?: string;
}

/**
 * The user message of a task: what to change, shown as before/after lines.
 *
 * @param task The task.
 * @returns The instruction.
 */
export function taskPrompt(task: Task): string {
  const fix = buildFix(task);
  return [
    `In the file ${task.path}, change these lines:`,
    "```",
    fix.oldString,
    "```",
    "so that they read:",
    "```",
    fix.newString,
    "```",
    "Read the file first, make the change with edit_file, change nothing else, and answer DONE when it is done.",
  ].join("\n");
}

async function chat(
  options: ModelBenchOptions,
  messages: Message[],
  tools: unknown[],
): Promise<ModelReply> {
  if (!options.url) {
    throw new TypeError(
      "The model harness needs url (an OpenAI-compatible base URL) or respond (a scripted stand-in).",
    );
  }
  const headers: Record<string, string> = {
    "content-type": "application/json",
  };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  const res = await fetch(
    `${options.url.replace(/\/+$/, "")}/chat/completions`,
    {
      method: "POST",
      headers,
      body: JSON.stringify({
        model: options.model,
        messages,
        tools,
        tool_choice: "auto",
      }),
    },
  );
  const text = await res.text();
  if (!res.ok) {
    throw new Error(
      `The endpoint answered ${res.status}: ${text.slice(0, 200)}`,
    );
  }
  const body = JSON.parse(text);
  const message = body?.choices?.[0]?.message;
  if (!message) {
    throw new Error("The endpoint's answer has no choices[0].message.");
  }
  return {
    message,
    outputTokens: Number(body?.usage?.completion_tokens ?? 0),
    inputTokens: Number(body?.usage?.prompt_tokens ?? 0),
  };
}

async function runOne(
  options: ModelBenchOptions,
  task: Task,
  format: ModelFormat,
  read: ReadForm,
): Promise<ModelRun> {
  const root = await mkdtemp(join(tmpdir(), "hashline-model-"));
  const file = join(root, task.path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, task.buggy);
  const workspace = openWorkspace(root, {
    persistSessions: false,
    stateDir: join(root, ".state"),
  });
  const registry = createToolRegistry({
    workspace,
    editFormat: format,
    ...(read === "lean" ? { anchors: "lean" as const } : {}),
  });
  const tools = registry.tools.map((t) => ({
    type: "function",
    function: {
      name: t.name,
      description: t.description,
      parameters: t.inputSchema,
    },
  }));
  const messages: Message[] = [
    { role: "system", content: registry.systemPrompt },
    { role: "user", content: taskPrompt(task) },
  ];
  const run: ModelRun = {
    task: task.id,
    format,
    read,
    outcome: "REFUSED",
    outputTokens: 0,
    inputTokens: 0,
    turns: 0,
    failedCalls: 0,
  };
  try {
    while (run.turns < (options.maxTurns ?? 8)) {
      run.turns++;
      const { message, outputTokens, inputTokens } = options.respond
        ? await options.respond({ messages, tools, task, format, read })
        : await chat(options, messages, tools);
      run.outputTokens += outputTokens;
      run.inputTokens += inputTokens;
      messages.push({
        role: "assistant",
        content: message.content ?? null,
        tool_calls: message.tool_calls,
      });
      if (!message.tool_calls?.length) break;
      for (const call of message.tool_calls) {
        let input: unknown;
        try {
          input = JSON.parse(call.function.arguments || "{}");
        } catch {
          input = undefined;
        }
        const result = input === undefined
          ? {
            ok: false as const,
            error: {
              code: "BAD_INPUT",
              message: "The arguments are not valid JSON.",
            },
          }
          : await registry.call(call.function.name, input);
        if (!result.ok) run.failedCalls++;
        messages.push({
          role: "tool",
          tool_call_id: call.id,
          content: result.ok
            ? result.text
            : `Error ${result.error.code}: ${result.error.message}`,
        });
      }
    }
    const after = await readFile(file, "utf8");
    run.outcome = score(
      after === task.buggy
        ? { written: false, reason: "unchanged" }
        : { written: true, content: after },
      task.original,
    );
  } catch (e) {
    run.error = e instanceof Error ? e.message : String(e);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return run;
}

/** The (format, read form) pairs a run covers, in table order. */
export function modelVariants(
  formats: readonly ModelFormat[] = MODEL_FORMATS,
  reads: readonly ReadForm[] = READ_FORMS,
): { format: ModelFormat; read: ReadForm }[] {
  const out: { format: ModelFormat; read: ReadForm }[] = [];
  for (const format of MODEL_FORMATS) {
    if (!formats.includes(format)) continue;
    if (format === "str_replace") out.push({ format, read: "hash" });
    else {
      for (const read of READ_FORMS) {
        if (reads.includes(read)) out.push({ format, read });
      }
    }
  }
  return out;
}

/** A row's name: `hashline, LINE:HH| read`, `hashline, lean LINE| read`, `str_replace`. */
export function variantLabel(format: ModelFormat, read: ReadForm): string {
  if (format === "str_replace") return "str_replace";
  return read === "lean"
    ? "hashline, lean `LINE|` read"
    : "hashline, `LINE:HH|` read";
}

/**
 * Runs every task in every format and read form, one conversation each.
 *
 * @param options Endpoint (or `respond`), model and tasks.
 * @returns One run per task, format and read form.
 */
export async function runModelBench(
  options: ModelBenchOptions,
): Promise<ModelRun[]> {
  const out: ModelRun[] = [];
  const variants = modelVariants(options.formats, options.reads);
  for (const task of options.tasks) {
    for (const { format, read } of variants) {
      const r = await runOne(options, task, format, read);
      options.log?.(
        `${task.id} ${
          variantLabel(format, read)
        }: ${r.outcome}, ${r.inputTokens} input / ${r.outputTokens} output tokens, ${r.turns} turns${
          r.error ? ` (${r.error})` : ""
        }`,
      );
      out.push(r);
    }
  }
  return out;
}

/**
 * Summary table: per format and read form, side by side, success rate,
 * input and output tokens and turns per task.
 *
 * @param runs The runs.
 * @returns A Markdown table.
 */
export function renderModelTable(runs: readonly ModelRun[]): string {
  const variants = modelVariants().filter((v) =>
    runs.some((r) => r.format === v.format && r.read === v.read)
  );
  return table(
    [
      "format",
      "tasks",
      "correct",
      "unchanged",
      "wrong",
      "success",
      "input tokens median / mean",
      "output tokens median / mean",
      "turns mean",
      "failed tool calls",
    ],
    variants.map((v) => {
      const rs = runs.filter((r) => r.format === v.format && r.read === v.read);
      const n = (o: Outcome): number =>
        rs.filter((r) => r.outcome === o).length;
      const tok = rs.map((r) => r.outputTokens);
      const inTok = rs.map((r) => r.inputTokens);
      return [
        variantLabel(v.format, v.read),
        String(rs.length),
        String(n("CORRECT")),
        String(n("REFUSED")),
        String(n("WRONG")),
        pct(n("CORRECT"), rs.length),
        `${num(median(inTok))} / ${num(mean(inTok), 1)}`,
        `${num(median(tok))} / ${num(mean(tok), 1)}`,
        num(mean(rs.map((r) => r.turns)), 2),
        String(rs.reduce((a, r) => a + r.failedCalls, 0)),
      ];
    }),
  );
}

/**
 * One row per task, one column per format and read form: the outcome with
 * input + output tokens, so the read forms compare task by task.
 *
 * @param runs The runs.
 * @returns A Markdown table.
 */
export function renderModelTaskTable(runs: readonly ModelRun[]): string {
  const variants = modelVariants().filter((v) =>
    runs.some((r) => r.format === v.format && r.read === v.read)
  );
  const tasks = [...new Set(runs.map((r) => r.task))];
  return table(
    ["task", ...variants.map((v) => variantLabel(v.format, v.read))],
    tasks.map((t) => [
      t,
      ...variants.map((v) => {
        const r = runs.find((x) =>
          x.task === t && x.format === v.format && x.read === v.read
        );
        return r ? `${r.outcome} ${r.inputTokens} + ${r.outputTokens}` : "–";
      }),
    ]),
  );
}
