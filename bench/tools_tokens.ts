/**
 * What the tool definitions cost a model on every request: o200k tokens
 * (the `gpt-tokenizer` package's o200k encoding) of
 * `JSON.stringify({ name, description, input_schema })` per tool, per tool
 * set and for the default set that `mcp` and `serve` offer, against the
 * budgets docs/mcp.md states ("What the tools cost a model"), beside the reference MCP filesystem server
 * (`@modelcontextprotocol/server-filesystem`, spawned over stdio and listed
 * with the SDK client in the same run) counted the same way. The
 * system-prompt snippets, the OpenAI strict-mode schemas and what
 * `hashline mcp` really lists over stdio are counted too.
 *
 * It also prints the lean-read ratio of docs/reads.md ("Lean reads"): on a 300-line
 * TypeScript file, o200k tokens a read adds to the bare lines, lean
 * (`LINE|`) over default (`LINE:HH|`), and the same ratio for
 * `@oh-my-pi/hashline`'s read (`[PATH#TAG]` + `N:TEXT`, from its own
 * formatter under Bun), and checks the default tool list against 1,652
 * tokens (the reference filesystem server's 14 tools).
 *
 * Run: `deno task bench:tools [--json] [--results]` (`--json` adds a last
 * line `RESULT {json}` with the figures; `--results` writes them into
 * `bench/RESULTS.md` between `<!-- tools:begin -->` and `<!-- tools:end -->`).
 *
 * The budgets and counters are exported for `tests/tools/budget.test.ts`,
 * which fails when a budget is passed.
 *
 * @module
 */
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { openAiTools } from "../src/adapters/openai.ts";
import { createMemoryStore } from "../src/store/memory_store.ts";
import {
  createToolRegistry,
  type EditFormat,
  type ToolRegistry,
  type ToolSetName,
} from "../src/tools/mod.ts";

/** A tool as a model API is sent it. */
export interface ToolShape {
  name: string;
  description?: string;
  inputSchema: unknown;
}

/** An outline of a generated 2,000-line TypeScript file against its full read (docs/reads.md, "Outline reads": ≤ 15%). */
export const OUTLINE_SHARE_BUDGET = 0.15;

/**
 * o200k tokens of an outline read and of the full read of the generated
 * 2,000-line TypeScript file of `_outline_sample.ts`, through a workspace.
 */
export async function outlineShare(): Promise<
  { outline: number; full: number; share: number; lines: number }
> {
  const { mkdtemp, rm, writeFile } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { openWorkspace } = await import("../src/workspace/mod.ts");
  const { outlineSample } = await import("./_outline_sample.ts");
  const dir = await mkdtemp(join(tmpdir(), "hashline-outline-"));
  try {
    const sample = outlineSample();
    await writeFile(join(dir, "big.ts"), sample.text);
    const ws = openWorkspace(dir, { stateDir: join(dir, ".state") });
    const outline = tokens((await ws.read("big.ts", { outline: true })).text);
    const read = await ws.read("big.ts");
    const full = tokens(read.text);
    return { outline, full, share: outline / full, lines: read.totalLines };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The budgets of docs/mcp.md, in o200k tokens. */
export const BUDGETS = {
  /** `edit_file` alone. */
  editFile: 550,
  /** The `files` set: `read_file`, `edit_file`, `write_file`, `list_files`, `search_files`. */
  files: 1100,
  /** The default set of `mcp` and `serve` (`files`, `store`). */
  defaultSet: 1652,
  /** The `history` set: `edit_history`, `undo_edit`. */
  history: 300,
  /** Our own cap on the system-prompt snippet of the default set. */
  prompt: 300,
} as const;

/** The default tool list's goal (docs/mcp.md): the reference server's 14 tools. */
export const DEFAULT_LIST_GOAL = 1652;

/** The lean read's goal: at most this share of the default read's overhead. */
export const LEAN_RATIO_GOAL = 0.5;

/** The file the lean ratio is measured on, and how many of its lines. */
export const LEAN_SAMPLE = {
  path: "bench/node_modules/rxjs/src/internal/Observable.ts",
  lines: 300,
} as const;

/** Tokens a read adds to the bare lines, per form, and the ratios to the default. */
export interface LeanRatio {
  /** Tokens of the bare lines. */
  plain: number;
  /** Added by the default `LINE:HH|` read. */
  hashOver: number;
  /** Added by the lean `LINE|` read. */
  leanOver: number;
  /** Added by the peer's read, or null when it could not run. */
  peerOver: number | null;
  /** `leanOver / hashOver`. */
  lean: number;
  /** `peerOver / hashOver`, or null. */
  peer: number | null;
}

/**
 * The lean-read ratio from the texts of one file's reads.
 *
 * @param plain The bare lines.
 * @param hash The default read.
 * @param lean The lean read.
 * @param peer The peer's read, or null.
 * @returns Overheads and ratios.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { leanRatio } from "./tools_tokens.ts";
 * const r = leanRatio("a\nb", "1:00|a\n2:00|b", "1|a\n2|b", null);
 * assert.ok(r.lean > 0 && r.lean < 1);
 * ```
 */
export function leanRatio(
  plain: string,
  hash: string,
  lean: string,
  peer: string | null,
): LeanRatio {
  const p = tokens(plain);
  const hashOver = tokens(hash) - p;
  const leanOver = tokens(lean) - p;
  const peerOver = peer === null ? null : tokens(peer) - p;
  return {
    plain: p,
    hashOver,
    leanOver,
    peerOver,
    lean: leanOver / hashOver,
    peer: peerOver === null ? null : peerOver / hashOver,
  };
}

/** Marker opening the generated block in `bench/RESULTS.md`. */
export const TOOLS_BEGIN = "<!-- tools:begin -->";
/** Marker closing it. */
export const TOOLS_END = "<!-- tools:end -->";

/**
 * Puts `block` between the tools markers of `doc`, or appends it with its
 * markers when there are none.
 *
 * @param doc The page.
 * @param block Markdown.
 * @returns The new page.
 */
export function replaceToolsBlock(doc: string, block: string): string {
  const wrapped = `${TOOLS_BEGIN}\n\n${block.trim()}\n\n${TOOLS_END}`;
  const a = doc.indexOf(TOOLS_BEGIN);
  const b = doc.indexOf(TOOLS_END);
  if (a >= 0 && b > a) {
    return doc.slice(0, a) + wrapped + doc.slice(b + TOOLS_END.length);
  }
  return doc.replace(/\n*$/, doc === "" ? "" : "\n\n") + wrapped + "\n";
}

/** Counts o200k tokens of a text. */
export function tokens(text: string): number {
  return encode(text).length;
}

/**
 * The tokens of one tool definition, as docs/mcp.md counts them.
 *
 * @param tool Name, description and input JSON Schema.
 * @returns o200k tokens of `JSON.stringify({ name, description, input_schema })`.
 */
export function toolTokens(tool: ToolShape): number {
  return tokens(JSON.stringify({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
  }));
}

/**
 * A registry over a workspace and a store, as `mcp` and `serve` build it;
 * the workspace is never opened, since counting lists tools only.
 * `anchors: "lean"` is passed only when given (a build without lean reads
 * may refuse the option).
 */
export function registryFor(
  editFormat: EditFormat,
  tools?: readonly ToolSetName[],
  anchors?: "hash" | "lean",
): ToolRegistry {
  return createToolRegistry(
    {
      workspace: () => Promise.reject(new Error("not opened when counting")),
      store: createMemoryStore(),
      editFormat,
      tools,
      ...(anchors === undefined ? {} : { anchors }),
    } as Parameters<typeof createToolRegistry>[0],
  );
}

/** Every figure the budgets speak of, for one edit format. */
export interface Measure {
  /** Tokens per tool, in listing order. */
  perTool: Record<string, number>;
  /** Tokens per set. */
  perSet: Record<string, number>;
  /** Tokens of the default set (`files`, `store`). */
  defaultSet: number;
  /** Tokens of the default set's system-prompt snippet. */
  prompt: number;
  /** Tokens of the default set's prompt snippet per set. */
  promptPerSet: Record<string, number>;
  /** Tokens of the default set as OpenAI strict-mode schemas. */
  openAiStrict: number;
}

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

/**
 * Counts our tools in one edit format.
 *
 * @param editFormat The edit format.
 * @returns The figures.
 */
export function measure(editFormat: EditFormat): Measure {
  const all = registryFor(editFormat);
  const perTool: Record<string, number> = {};
  for (const t of all.tools) perTool[t.name] = toolTokens(t);
  const perSet: Record<string, number> = {};
  const promptPerSet: Record<string, number> = {};
  for (const set of ["files", "store", "history"] as const) {
    const r = registryFor(editFormat, [set]);
    perSet[set] = sum(r.tools.map(toolTokens));
    promptPerSet[set] = tokens(r.systemPrompt);
  }
  const strict = openAiTools(all).chatTools.map((t) =>
    toolTokens({
      name: t.function.name,
      description: t.function.description,
      inputSchema: t.function.parameters,
    })
  );
  return {
    perTool,
    perSet,
    defaultSet: sum(Object.values(perTool)),
    prompt: tokens(all.systemPrompt),
    promptPerSet,
    openAiStrict: sum(strict),
  };
}

/**
 * Measures the lean ratio on the sample file: the library's lean read when
 * this build offers one, else the form docs/reads.md fixes, made from the default
 * read; the peer's read from its own formatter in a Bun subprocess.
 */
async function measureLeanRatio(
  repo: string,
): Promise<{ r: LeanRatio; source: string; peerNote: string }> {
  const { readFile } = await import("node:fs/promises");
  const { join } = await import("node:path");
  const { formatHashlines } = await import("../mod.ts");
  const { leanFromHashlines, libraryLeanRead } = await import(
    "./formats/cost.ts"
  );
  const { peerUnavailable, runPeer } = await import("./formats/peer.ts");
  const all = (await readFile(join(repo, LEAN_SAMPLE.path), "utf8")).split(
    "\n",
  );
  const text = all.slice(0, LEAN_SAMPLE.lines).join("\n") + "\n";
  const plain = text.slice(0, -1);
  const hash = formatHashlines(text, { limit: 100_000 }).text;
  const library = await libraryLeanRead(text, "sample.ts");
  const leanOk = library !== null && /^1\|/.test(library);
  const lean = leanOk ? library! : leanFromHashlines(hash);
  let peer: string | null = null;
  let peerNote = "";
  const why = peerUnavailable();
  if (why !== undefined) peerNote = ` (peer not run: ${why})`;
  else {
    try {
      const r = await runPeer([{
        path: "sample.ts",
        read: text,
        disk: text,
        ops: "PUT >1:\n+\n",
      }]);
      peer = r.results[0].read;
      peerNote = ` (${"@oh-my-pi/hashline"} ${r.version})`;
    } catch (e) {
      peerNote = ` (peer failed: ${(e as Error).message.split("\n")[0]})`;
    }
  }
  return {
    r: leanRatio(plain, hash, lean, peer),
    source: leanOk
      ? "the library's lean read"
      : 'lean read formatted per docs/reads.md; this build has no `anchors: "lean"`',
    peerNote,
  };
}

async function main(): Promise<void> {
  const { mkdtemp, rm, realpath } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const process = (await import("node:process")).default;
  const { fileURLToPath } = await import("node:url");
  const { Client } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport } = await import(
    "@modelcontextprotocol/client/stdio"
  );
  const { printSummary } = await import("./_summary.ts");

  const repo = fileURLToPath(new URL("../", import.meta.url));
  const reference = join(
    repo,
    "bench/node_modules/@modelcontextprotocol/server-filesystem",
  );
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined) env[k] = v;
  }
  const listOver = async (
    command: string,
    args: string[],
    extra: Record<string, string> = {},
  ): Promise<ToolShape[]> => {
    const client = new Client({ name: "bench-tools", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command,
        args,
        env: { ...env, ...extra },
        stderr: "pipe",
      }),
    );
    try {
      return (await client.listTools()).tools as ToolShape[];
    } finally {
      await client.close();
    }
  };

  const root = await realpath(await mkdtemp(join(tmpdir(), "hashline-tok-")));
  try {
    const { version } = JSON.parse(
      await (await import("node:fs/promises")).readFile(
        join(reference, "package.json"),
        "utf8",
      ),
    );
    const [theirs, served] = await Promise.all([
      listOver("node", [join(reference, "dist/index.js"), root]),
      listOver(
        join(repo, "node_modules/.bin/deno"),
        ["run", "-A", join(repo, "src/cli/main.ts"), "mcp", "--root", root],
        { HASHLINE_STORE: join(root, ".state") },
      ),
    ]);
    const hashline = measure("hashline");
    const strReplace = measure("str_replace");
    const refPerTool = theirs.map((t) => [t.name, toolTokens(t)] as const);
    const refTotal = sum(refPerTool.map(([, n]) => n));
    const refEdit = refPerTool.find(([n]) => n === "edit_file")?.[1] ?? NaN;
    const servedTotal = sum(served.map(toolTokens));
    const ratio = await measureLeanRatio(repo);

    const pad = (s: string | number, n: number) => String(s).padStart(n);
    const mark = (n: number, budget: number) =>
      `budget ${pad(budget, 5)}  ${n <= budget ? "ok" : "OVER"}`;
    const lines: string[] = [
      "Tool definitions: o200k tokens of JSON.stringify({ name, description, input_schema })",
      "",
      `tool             hashline  str_replace   reference server-filesystem ${version}`,
    ];
    const ours = Object.keys(hashline.perTool);
    const rows = Math.max(ours.length, refPerTool.length);
    for (let i = 0; i < rows; i++) {
      const name = ours[i];
      const left = name
        ? `${name.padEnd(16)} ${pad(hashline.perTool[name], 8)}  ${
          pad(strReplace.perTool[name], 11)
        }`
        : " ".repeat(38);
      const ref = refPerTool[i];
      lines.push(
        `${left}   ${ref ? `${ref[0].padEnd(28)} ${pad(ref[1], 5)}` : ""}`
          .trimEnd(),
      );
    }
    lines.push(
      "",
      `sets                     hashline  str_replace`,
      `edit_file                ${pad(hashline.perTool.edit_file, 8)}  ${
        pad(strReplace.perTool.edit_file, 11)
      }   ${mark(hashline.perTool.edit_file, BUDGETS.editFile)}`,
      `files                    ${pad(hashline.perSet.files, 8)}  ${
        pad(strReplace.perSet.files, 11)
      }   ${mark(hashline.perSet.files, BUDGETS.files)}`,
      `store                    ${pad(hashline.perSet.store, 8)}  ${
        pad(strReplace.perSet.store, 11)
      }`,
      `history                  ${pad(hashline.perSet.history, 8)}  ${
        pad(strReplace.perSet.history, 11)
      }   ${mark(hashline.perSet.history, BUDGETS.history)}`,
      `default (files,store)    ${pad(hashline.defaultSet, 8)}  ${
        pad(strReplace.defaultSet, 11)
      }   ${mark(hashline.defaultSet, BUDGETS.defaultSet)}`,
      `system prompt, default   ${pad(hashline.prompt, 8)}  ${
        pad(strReplace.prompt, 11)
      }   ${mark(hashline.prompt, BUDGETS.prompt)} (our own cap)`,
      `  of it files / store    ${
        pad(
          `${hashline.promptPerSet.files} / ${hashline.promptPerSet.store}`,
          8,
        )
      }  ${
        pad(
          `${strReplace.promptPerSet.files} / ${strReplace.promptPerSet.store}`,
          11,
        )
      }`,
      `OpenAI strict, default   ${pad(hashline.openAiStrict, 8)}  ${
        pad(strReplace.openAiStrict, 11)
      }`,
      "",
      `hashline mcp over stdio lists ${served.length} tools, ${servedTotal} tokens${
        servedTotal === hashline.defaultSet
          ? " (the same as counted above)"
          : ""
      }`,
      `reference server-filesystem: ${theirs.length} tools, ${refTotal} tokens; edit_file ${refEdit}`,
      `ratio hashline / reference: default set ${
        (hashline.defaultSet / refTotal).toFixed(2)
      }x, edit_file ${(hashline.perTool.edit_file / refEdit).toFixed(2)}x`,
    );
    const f2 = (x: number | null) => x === null ? "n/a" : x.toFixed(2);
    lines.push(
      "",
      `default tool list ${hashline.defaultSet} tokens, goal ${DEFAULT_LIST_GOAL}: ${
        hashline.defaultSet <= DEFAULT_LIST_GOAL ? "ok" : "OVER"
      }; edit_file ${hashline.perTool.edit_file}`,
      "",
      `Lean read, ${LEAN_SAMPLE.lines} lines of ${LEAN_SAMPLE.path} (${ratio.source}): tokens a read adds to the ${ratio.r.plain} of the bare lines`,
      `LINE:HH| (default)            +${ratio.r.hashOver}`,
      `LINE| (lean)                  +${ratio.r.leanOver}   ratio ${
        f2(ratio.r.lean)
      }x (goal <= ${LEAN_RATIO_GOAL}x: ${
        ratio.r.lean <= LEAN_RATIO_GOAL ? "ok" : "OVER"
      })`,
      `[PATH#TAG] + N:TEXT (peer)    ${
        ratio.r.peerOver === null ? "n/a" : `+${ratio.r.peerOver}`
      }   ratio ${f2(ratio.r.peer)}x${ratio.peerNote}`,
    );
    const o = await outlineShare();
    lines.push(
      `outline read of a generated ${o.lines}-line TypeScript file: ${o.outline} tokens, full read ${o.full}: ${
        (o.share * 100).toFixed(1)
      }%   budget ${OUTLINE_SHARE_BUDGET * 100}%  ${
        o.share <= OUTLINE_SHARE_BUDGET ? "ok" : "OVER"
      }`,
    );
    console.log(lines.join("\n"));
    if (process.argv.includes("--results")) {
      const { readFile, writeFile } = await import("node:fs/promises");
      const path = join(repo, "bench", "RESULTS.md");
      const page = await readFile(path, "utf8").catch(() =>
        "# Benchmark results\n"
      );
      const block = [
        "## Tool definitions and read forms",
        "",
        "Regenerate with `deno task bench:tools --results` (`bench/tools_tokens.ts`; o200k tokens, `gpt-tokenizer`).",
        "",
        `- Default tool list (\`mcp\`, \`serve\`): ${hashline.defaultSet} tokens (goal ≤ ${DEFAULT_LIST_GOAL}, the reference \`server-filesystem\` ${version}: ${theirs.length} tools, ${refTotal} tokens); \`edit_file\` ${hashline.perTool.edit_file}.`,
        `- Lean read on ${LEAN_SAMPLE.lines} lines of \`${LEAN_SAMPLE.path}\` (${ratio.source}): a \`LINE:HH|\` read adds ${ratio.r.hashOver} tokens to the ${ratio.r.plain} of the bare lines, a lean \`LINE|\` read ${ratio.r.leanOver}: **${
          f2(ratio.r.lean)
        }×** (goal ≤ ${LEAN_RATIO_GOAL}×). The peer's \`[PATH#TAG]\` + \`N:TEXT\` read adds ${
          ratio.r.peerOver ?? "n/a"
        }: ${f2(ratio.r.peer)}×${ratio.peerNote}.`,
      ].join("\n");
      await writeFile(path, replaceToolsBlock(page, block));
      const { spawnSync } = await import("node:child_process");
      spawnSync(join(repo, "node_modules/.bin/deno"), ["fmt", "-q", path]);
    }
    printSummary("tools", {
      outline: o,
      budgets: BUDGETS,
      hashline,
      strReplace,
      servedOverStdio: servedTotal,
      defaultListGoal: DEFAULT_LIST_GOAL,
      leanRatio: ratio.r,
      reference: {
        version,
        tools: theirs.length,
        total: refTotal,
        editFile: refEdit,
        perTool: Object.fromEntries(refPerTool),
      },
    });
    const over = hashline.perTool.edit_file > BUDGETS.editFile ||
      strReplace.perTool.edit_file > BUDGETS.editFile ||
      Math.max(hashline.perSet.files, strReplace.perSet.files) >
        BUDGETS.files ||
      Math.max(hashline.defaultSet, strReplace.defaultSet) >
        BUDGETS.defaultSet;
    if (over) process.exitCode = 1;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if ((import.meta as { main?: boolean }).main) await main();
