/**
 * What a task costs a model: one read of the file plus k edits, with the
 * tool definitions, per read form and edit format. This module holds the
 * read forms the library may or may not offer yet (probed on a temp
 * workspace, so the bench reports what the code in the tree does), the
 * lean form as docs/reads.md fixes it when the library lacks it, and the tool
 * definitions each row is charged.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatHashlines, openWorkspace, type ReadOptions } from "../../mod.ts";
import { createMemoryStore } from "../../src/store/memory_store.ts";
import {
  createToolRegistry,
  type EditFormat,
  type ToolSetName,
} from "../../src/tools/mod.ts";
import type { TokenCounter, TokenizerName } from "./tokens.ts";
import { TOKENIZERS } from "./tokens.ts";

/** The rows of the per-task table, in order. */
export const COST_ROWS = [
  "hashline",
  "hashline_lean",
  "hashline_outline",
  "str_replace",
  "peer",
] as const;

/** One row of the per-task table. */
export type CostRow = typeof COST_ROWS[number];

/** Row labels. */
export const COST_LABELS: Readonly<Record<CostRow, string>> = {
  hashline: "hashline, `LINE:HH|` read + `L:HH` ops",
  hashline_lean: "hashline, lean `LINE|` read + bare-number ops",
  hashline_outline: "hashline, outline read + block read + `L:HH` ops",
  str_replace: "str_replace, `cat -n` read",
  peer: "`@oh-my-pi/hashline` 18, `[PATH#TAG]` + `N:TEXT` read, `PUT` ops",
};

/** The edit counts per read the table shows. */
export const EDITS_PER_TASK = [1, 3, 10] as const;

/** One task's read and edit tokens for one row (null: not available here). */
export type TaskCost = { read: number; edit: number } | null;

/** What this build offers, found by probing a temp workspace. */
export interface ReadForms {
  /** `read(path, { anchors: "lean" })` shows `LINE|content`. */
  leanRead: boolean;
  /** A patch naming a line by number alone applies after a lean read. */
  leanOps: boolean;
  /** `read(path, { outline: true })` shows fewer lines than the file. */
  outline: boolean;
}

/**
 * A lean read as docs/reads.md fixes it (`LINE|content`), from the library's
 * own `LINE:HH|` form, for counting when the library has no lean read.
 *
 * @param hashlineView `formatHashlines(...).text`.
 * @returns The same lines without the hash.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { leanFromHashlines } from "./cost.ts";
 * assert.equal(leanFromHashlines("1:ab|x\n2:0f|y"), "1|x\n2|y");
 * ```
 */
export function leanFromHashlines(hashlineView: string): string {
  return hashlineView.replace(/^(\d+):[0-9a-f]{2}\|/gm, "$1|");
}

/**
 * Probes the library on a temp workspace.
 *
 * @returns The read forms it offers.
 */
export async function probeReadForms(): Promise<ReadForms> {
  const dir = await mkdtemp(join(tmpdir(), "hashline-forms-probe-"));
  const out: ReadForms = { leanRead: false, leanOps: false, outline: false };
  try {
    const ws = openWorkspace(dir, {
      persistSessions: false,
      stateDir: join(dir, ".state"),
    });
    await writeFile(join(dir, "f.txt"), "alpha\nbeta\n");
    try {
      const r = await ws.read(
        "f.txt",
        { anchors: "lean" } as ReadOptions,
      );
      out.leanRead = r.text === "1|alpha\n2|beta";
    } catch {
      out.leanRead = false;
    }
    if (out.leanRead) {
      try {
        await ws.patch("@@ f.txt\n= 2\n~BETA\n");
        out.leanOps = true;
      } catch {
        out.leanOps = false;
      }
    }
    const ts = Array.from(
      { length: 3 },
      (_, i) =>
        `export function f${i}(a: number): number {\n  const b = a + ${i};\n  const c = b * 2;\n  return c;\n}\n`,
    ).join("\n");
    await writeFile(join(dir, "g.ts"), ts);
    try {
      const r = await ws.read("g.ts", { outline: true } as ReadOptions);
      out.outline = r.text.split("\n").length < ts.split("\n").length - 1;
    } catch {
      out.outline = false;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}

/**
 * The line numbers an outline read shows (`12:a3|…` or `12|…`).
 *
 * @param outline The outline's text.
 * @returns Shown line numbers, ascending.
 */
export function outlineLines(outline: string): number[] {
  const out: number[] = [];
  for (const l of outline.split("\n")) {
    const m = /^(\d+)(?::[0-9a-f]{2})?\|/.exec(l);
    if (m) out.push(Number(m[1]));
  }
  return out;
}

/**
 * The block read after an outline: from the last shown line at or before
 * the edit's first line to the line before the next shown line after its
 * last (the whole file's end when none).
 *
 * @param shown From {@link outlineLines}.
 * @param first First line the edit touches (1-based).
 * @param last Last line it touches.
 * @param total Lines in the file.
 * @returns `offset` and `limit` of the read.
 */
export function blockWindow(
  shown: readonly number[],
  first: number,
  last: number,
  total: number,
): { offset: number; limit: number } {
  let from = 1;
  let to = total;
  for (const n of shown) {
    if (n <= first) from = n;
    else if (n > last) {
      to = n - 1;
      break;
    }
  }
  return { offset: from, limit: Math.max(1, to - from + 1) };
}

/**
 * Reads a task's file in outline, then the block of its edit, through a
 * workspace; both texts, or null when this build has no outline read.
 *
 * @param content The file as read.
 * @param path Its path (for the grammar).
 * @param first First line the edit touches (1-based).
 * @param last Last line.
 * @returns Outline and block read texts.
 */
export async function outlineAndBlock(
  content: string,
  path: string,
  first: number,
  last: number,
): Promise<{ outline: string; block: string } | null> {
  const dir = await mkdtemp(join(tmpdir(), "hashline-forms-outline-"));
  try {
    const ws = openWorkspace(dir, {
      persistSessions: false,
      stateDir: join(dir, ".state"),
    });
    const name = `f${path.slice(path.lastIndexOf("."))}`;
    await writeFile(join(dir, name), content);
    const o = await ws.read(
      name,
      { outline: true, limit: 100_000 } as ReadOptions,
    );
    const total = o.totalLines;
    const window = blockWindow(outlineLines(o.text), first, last, total);
    return {
      outline: o.text,
      block: formatHashlines(content, window).text,
    };
  } catch {
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const HERE = dirname(fileURLToPath(import.meta.url));
const PEER_PROMPT = join(
  HERE,
  "..",
  "node_modules",
  "@oh-my-pi",
  "hashline",
  "src",
  "prompt.md",
);

/** A tool as a model API is sent it. */
interface ToolShape {
  name: string;
  description?: string;
  inputSchema: unknown;
}

// As `bench/tools_tokens.ts` builds it (not imported: that module awaits its
// own main when run, and an import cycle would never settle).
function registryFor(
  editFormat: EditFormat,
  tools: readonly ToolSetName[],
  anchors?: "lean",
): { tools: readonly ToolShape[] } {
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

const def = (t: ToolShape): string =>
  JSON.stringify({
    name: t.name,
    description: t.description,
    input_schema: t.inputSchema,
  });

/**
 * The tool definitions each row is charged once per task: the `files` set
 * (`read_file`, `edit_file`, `write_file`) of this project's registry in the
 * row's edit format (the lean row: the registry built with
 * `anchors: "lean"` when it takes that option, else the default one); for
 * the peer, its own edit tool description (`src/prompt.md`, the package's
 * text for the model) with an `{ input }` schema, beside the registry's
 * `read_file` as its read tool, since the package ships no tool schema.
 *
 * @param counter Token counter.
 * @returns Tokens per row and tokenizer.
 */
export function toolDefinitionTokens(
  counter: TokenCounter,
): Record<CostRow, Record<TokenizerName, number>> {
  const count = (tools: readonly ToolShape[], tk: TokenizerName): number =>
    tools.reduce((a, t) => a + counter.count(tk, def(t)), 0);
  const hashline = registryFor("hashline", ["files"]).tools as ToolShape[];
  const strReplace = registryFor("str_replace", ["files"]).tools as ToolShape[];
  let lean = hashline;
  try {
    lean = registryFor("hashline", ["files"], "lean").tools as ToolShape[];
  } catch {
    lean = hashline;
  }
  let prompt = "";
  try {
    prompt = readFileSync(PEER_PROMPT, "utf8");
  } catch {
    prompt = "";
  }
  const peer: ToolShape[] = [
    hashline.find((t) => t.name === "read_file")!,
    {
      name: "edit",
      description: prompt,
      inputSchema: {
        type: "object",
        properties: { input: { type: "string" } },
        required: ["input"],
      },
    },
  ];
  const out = {} as Record<CostRow, Record<TokenizerName, number>>;
  for (const row of COST_ROWS) {
    out[row] = {} as Record<TokenizerName, number>;
    for (const tk of TOKENIZERS) {
      out[row][tk] = count(
        row === "str_replace"
          ? strReplace
          : row === "peer"
          ? peer
          : row === "hashline_lean"
          ? lean
          : hashline,
        tk,
      );
    }
  }
  return out;
}

/**
 * A whole-file lean read through the library's workspace (`anchors:
 * "lean"`), or null when it fails.
 *
 * @param content The file as read.
 * @param path Its path (for the extension).
 * @returns The read's text.
 */
export async function libraryLeanRead(
  content: string,
  path: string,
): Promise<string | null> {
  const dir = await mkdtemp(join(tmpdir(), "hashline-forms-lean-"));
  try {
    const ws = openWorkspace(dir, {
      persistSessions: false,
      stateDir: join(dir, ".state"),
    });
    const name = `f${path.slice(path.lastIndexOf("."))}`;
    await writeFile(join(dir, name), content);
    return (await ws.read(
      name,
      { anchors: "lean", limit: 100_000 } as ReadOptions,
    )).text;
  } catch {
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
