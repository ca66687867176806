/**
 * The model harness: the benchmark's tasks run against any OpenAI-compatible
 * chat-completions endpoint, through this project's tool registry over a
 * real workspace, scored with the same checker. Per task and edit format it
 * reports success, output tokens and turns.
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

/** Where the model is, and what to run. */
export interface ModelBenchOptions {
  /** Base URL of the API (`…/v1`); `/chat/completions` is appended. */
  url: string;
  /** Bearer key (omitted when empty). */
  key?: string;
  /** Model name. */
  model: string;
  /** The tasks. */
  tasks: readonly Task[];
  /** Formats to run (default both). */
  formats?: readonly ModelFormat[];
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
  /** CORRECT: the file is the fixed file; REFUSED: unchanged; WRONG: anything else. */
  outcome: Outcome;
  /** Sum of `usage.completion_tokens` over the task's requests. */
  outputTokens: number;
  /** Requests made. */
  turns: number;
  /** Tool calls that failed (refused or bad input). */
  failedCalls: number;
  /** Why the run stopped early, if it did. */
  error?: string;
}

interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}
interface Message {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  tool_calls?: ToolCall[];
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
): Promise<{ message: Message; outputTokens: number }> {
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
  return { message, outputTokens: Number(body?.usage?.completion_tokens ?? 0) };
}

async function runOne(
  options: ModelBenchOptions,
  task: Task,
  format: ModelFormat,
): Promise<ModelRun> {
  const root = await mkdtemp(join(tmpdir(), "hashline-model-"));
  const file = join(root, task.path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, task.buggy);
  const workspace = openWorkspace(root, {
    persistSessions: false,
    stateDir: join(root, ".state"),
  });
  const registry = createToolRegistry({ workspace, editFormat: format });
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
    outcome: "REFUSED",
    outputTokens: 0,
    turns: 0,
    failedCalls: 0,
  };
  try {
    while (run.turns < (options.maxTurns ?? 8)) {
      run.turns++;
      const { message, outputTokens } = await chat(options, messages, tools);
      run.outputTokens += outputTokens;
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

/**
 * Runs every task in every format, one conversation each.
 *
 * @param options Endpoint, model and tasks.
 * @returns One run per task and format.
 */
export async function runModelBench(
  options: ModelBenchOptions,
): Promise<ModelRun[]> {
  const out: ModelRun[] = [];
  for (const task of options.tasks) {
    for (const format of options.formats ?? MODEL_FORMATS) {
      const r = await runOne(options, task, format);
      options.log?.(
        `${task.id} ${format}: ${r.outcome}, ${r.outputTokens} output tokens, ${r.turns} turns${
          r.error ? ` (${r.error})` : ""
        }`,
      );
      out.push(r);
    }
  }
  return out;
}

/**
 * Summary table: per format, success rate, output tokens and turns per task.
 *
 * @param runs The runs.
 * @returns A Markdown table.
 */
export function renderModelTable(runs: readonly ModelRun[]): string {
  const formats = MODEL_FORMATS.filter((f) => runs.some((r) => r.format === f));
  return table(
    [
      "format",
      "tasks",
      "correct",
      "unchanged",
      "wrong",
      "success",
      "output tokens median / mean",
      "turns mean",
      "failed tool calls",
    ],
    formats.map((f) => {
      const rs = runs.filter((r) => r.format === f);
      const n = (o: Outcome): number =>
        rs.filter((r) => r.outcome === o).length;
      const tok = rs.map((r) => r.outputTokens);
      return [
        f,
        String(rs.length),
        String(n("CORRECT")),
        String(n("REFUSED")),
        String(n("WRONG")),
        pct(n("CORRECT"), rs.length),
        `${num(median(tok))} / ${num(mean(tok), 1)}`,
        num(mean(rs.map((r) => r.turns)), 2),
        String(rs.reduce((a, r) => a + r.failedCalls, 0)),
      ];
    }),
  );
}
