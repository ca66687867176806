/**
 * Benchmark (not a test): what moving a function costs a model in output
 * tokens, per edit format — hashline's `move` against retyping it (hashline
 * delete plus insert, str_replace's two calls, a unified diff, Codex
 * `apply_patch`) and `@oh-my-pi/hashline`'s `CUT`/`PUT` registers. Two tasks
 * on real source files: a function moved to the end of its own file, and
 * one moved to the end of another file. The hashline and peer patches are
 * applied (the peer in a Bun child) and must give the same files.
 *
 *   node_modules/.bin/deno run -A bench/formats/moves.ts
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { lineHash } from "../../mod.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { createTokenCounter, TOKENIZERS } from "./tokens.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, "..", "..");

/** One move task: the function's lines in the source, the target line after which it goes. */
interface MoveTask {
  name: string;
  source: string;
  target: string;
  text: Record<string, string>;
  start: number;
  end: number;
  after: number;
}

/** The output a model writes for a task, per format. */
type Outputs = Record<string, string>;

const FORMATS = [
  "hashline move (text)",
  "hashline move (JSON)",
  "hashline delete + retype",
  "str_replace (2 calls)",
  "unified diff",
  "Codex apply_patch",
  "oh-my-pi CUT/PUT",
] as const;

const lines = (text: string) => text.replace(/\n$/, "").split("\n");
const anchor = (ls: string[], n: number) => `${n}:${lineHash(ls[n - 1])}`;

/** The largest top-level function of 15–60 lines (opening `export function`/`function`, closing `}` at column 0). */
function findFunction(ls: string[]): [number, number] {
  let best: [number, number] = [0, -1];
  for (let i = 0; i < ls.length; i++) {
    if (!/^(export )?(async )?function /.test(ls[i])) continue;
    let s = i;
    while (s > 0 && /^( \*|\/\*\*| \*\/)/.test(ls[s - 1])) s--;
    const e = ls.findIndex((l, k) => k > i && l === "}");
    if (e < 0) continue;
    const n = e - s + 1;
    const last = e + 1 >= ls.length - 3;
    if (n >= 15 && n <= 60 && !last && n > best[1] - best[0] + 1) {
      best = [s + 1, e + 1];
    }
  }
  if (best[1] < 0) throw new Error("no function of 15–60 lines found");
  return best;
}

async function tasks(): Promise<MoveTask[]> {
  const source = "src/patch/validate.ts";
  const target = "src/patch/plan.ts";
  const a = await readFile(join(REPO, source), "utf8");
  const b = await readFile(join(REPO, target), "utf8");
  const [start, end] = findFunction(lines(a));
  return [
    {
      name: `move a ${end - start + 1}-line function to the end of its file`,
      source,
      target: source,
      text: { [source]: a },
      start,
      end,
      after: lines(a).length,
    },
    {
      name: `move a ${end - start + 1}-line function to another file`,
      source,
      target,
      text: { [source]: a, [target]: b },
      start,
      end,
      after: lines(b).length,
    },
  ];
}

/** Unified-diff style hunks: ` ` context, `-` removed, `+` added, 3 lines of context. */
function hunk(
  ls: string[],
  at: number,
  removed: string[],
  added: string[],
  style: "diff" | "codex",
): string[] {
  const before = ls.slice(Math.max(0, at - 1 - 3), at - 1);
  const after = ls.slice(at - 1 + removed.length, at - 1 + removed.length + 3);
  const head = style === "diff"
    ? [
      `@@ -${at - before.length},${
        before.length + removed.length + after.length
      } +${at - before.length},${
        before.length + added.length + after.length
      } @@`,
    ]
    : ["@@"];
  return [
    ...head,
    ...before.map((l) => ` ${l}`),
    ...removed.map((l) => `-${l}`),
    ...added.map((l) => `+${l}`),
    ...after.map((l) => ` ${l}`),
  ];
}

function outputs(t: MoveTask): Outputs {
  const src = lines(t.text[t.source]);
  const dst = lines(t.text[t.target]);
  const fn = src.slice(t.start - 1, t.end);
  const same = t.source === t.target;
  const [s, e, c] = [
    anchor(src, t.start),
    anchor(src, t.end),
    anchor(dst, t.after),
  ];
  const dest = same ? c : `${t.target}:${c}`;
  const tail = dst.slice(Math.max(0, t.after - 2), t.after).join("\n");
  const diffFile = (path: string, body: string[]) => [
    `--- a/${path}`,
    `+++ b/${path}`,
    ...body,
  ];
  const cut = hunk(src, t.start, fn, [], "diff");
  const put = hunk(dst, t.after + 1, [], fn, "diff");
  const codexCut = hunk(src, t.start, fn, [], "codex");
  const codexPut = hunk(dst, t.after + 1, [], fn, "codex");
  return {
    "hashline move (text)": `@@ ${t.source}\nm ${s}..${e} > ${dest}\n`,
    "hashline move (JSON)": JSON.stringify({
      files: [{
        path: t.source,
        ops: [{
          op: "move",
          start: s,
          end: e,
          ...(same ? {} : { to: t.target }),
          after: c,
        }],
      }],
    }),
    "hashline delete + retype": [
      `@@ ${t.source}`,
      `- ${s}..${e}`,
      ...(same ? [] : [`@@ ${t.target}`]),
      `+ ${c}`,
      ...fn.map((l) => `~${l}`),
      "",
    ].join("\n"),
    "str_replace (2 calls)": JSON.stringify({
      path: t.source,
      old_string: fn.join("\n") + "\n",
      new_string: "",
    }) + JSON.stringify({
      path: t.target,
      old_string: tail,
      new_string: `${tail}\n\n${fn.join("\n")}`,
    }),
    "unified diff":
      (same
        ? diffFile(t.source, [...cut, ...put])
        : [...diffFile(t.source, cut), ...diffFile(t.target, put)]).join("\n") +
      "\n",
    "Codex apply_patch": [
      "*** Begin Patch",
      `*** Update File: ${t.source}`,
      ...codexCut,
      ...(same ? [] : [`*** Update File: ${t.target}`]),
      ...codexPut,
      "*** End Patch",
    ].join("\n") + "\n",
    "oh-my-pi CUT/PUT": same
      ? `[${t.source}#TAG]\nCUT ${t.start}.=${t.end}\nPUT >${t.after}\n`
      : `[${t.source}#TAG]\nCUT ${t.start}.=${t.end} @fn\n[${t.target}#TAG]\nPUT >${t.after} @fn\n`,
  };
}

/** What every format must produce: the function gone from its place and after the target line. */
function expected(t: MoveTask): Record<string, string> {
  const src = lines(t.text[t.source]);
  const fn = src.slice(t.start - 1, t.end);
  const rest = [...src.slice(0, t.start - 1), ...src.slice(t.end)];
  if (t.source === t.target) {
    const after = t.after - fn.length;
    return {
      [t.source]: [...rest.slice(0, after), ...fn, ...rest.slice(after)]
        .join("\n") + "\n",
    };
  }
  const dst = lines(t.text[t.target]);
  return {
    [t.source]: rest.join("\n") + "\n",
    [t.target]: [...dst.slice(0, t.after), ...fn, ...dst.slice(t.after)]
      .join("\n") + "\n",
  };
}

async function viaHashline(
  t: MoveTask,
  patch: string,
): Promise<Record<string, string>> {
  const root = await mkdtemp(join(tmpdir(), "hashline-moves-"));
  try {
    for (const [p, text] of Object.entries(t.text)) {
      const file = join(root, p.replaceAll("/", "_"));
      await writeFile(file, text);
    }
    const flat = (p: string) => p.replaceAll("/", "_");
    const ws = openWorkspace(root, { stateDir: join(root, ".state") });
    for (const p of Object.keys(t.text)) await ws.read(flat(p));
    let text = patch;
    for (const p of Object.keys(t.text)) text = text.replaceAll(p, flat(p));
    await ws.patch(text);
    const out: Record<string, string> = {};
    for (const p of Object.keys(t.text)) {
      out[p] = await readFile(join(root, flat(p)), "utf8");
    }
    return out;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function viaPeer(t: MoveTask, patch: string): Record<string, string> | string {
  const bun = join(REPO, "node_modules", ".bin", "bun");
  const run = spawnSync(bun, ["run", join(HERE, "_peer_moves.ts")], {
    input: JSON.stringify({ files: t.text, patch }),
    encoding: "utf8",
  });
  if (run.status !== 0) return `bun exited ${run.status}: ${run.stderr}`;
  const out = JSON.parse(run.stdout);
  return out.ok ? out.files : out.error;
}

/**
 * Runs the move tasks and returns the table (Markdown), checking that
 * hashline's move, its retyped form and the peer's registers give the
 * same files.
 *
 * @returns The table and the notes of any check that failed.
 */
export async function movesTable(): Promise<
  { table: string; notes: string[] }
> {
  const counter = createTokenCounter();
  const notes: string[] = [];
  const rows: string[] = [
    `| task | tokenizer | ${FORMATS.join(" | ")} |`,
    `| --- | --- | ${FORMATS.map(() => "---:").join(" | ")} |`,
  ];
  for (const t of await tasks()) {
    const out = outputs(t);
    const want = expected(t);
    for (const f of ["hashline move (text)", "hashline delete + retype"]) {
      const got = await viaHashline(t, out[f]).catch((e) => {
        notes.push(`${t.name}: ${f}: ${(e as Error).message}`);
        return {} as Record<string, string>;
      });
      for (const [p, text] of Object.entries(want)) {
        if (got[p] !== text) notes.push(`${t.name}: ${f} gave another ${p}`);
      }
    }
    const peer = viaPeer(t, out["oh-my-pi CUT/PUT"]);
    if (typeof peer === "string") notes.push(`${t.name}: peer: ${peer}`);
    else {
      for (const [p, text] of Object.entries(want)) {
        if (peer[p] !== text) notes.push(`${t.name}: peer gave another ${p}`);
      }
    }
    for (const k of TOKENIZERS) {
      const counts = FORMATS.map((f) =>
        counter.count(
          k,
          f === "oh-my-pi CUT/PUT"
            ? out[f].replaceAll("#TAG", "#A1B2")
            : out[f],
        )
      );
      rows.push(`| ${t.name} | ${k} | ${counts.join(" | ")} |`);
    }
  }
  return { table: rows.join("\n"), notes };
}

if (import.meta.main) {
  const { table, notes } = await movesTable();
  console.log(table);
  for (const n of notes) console.error(`note: ${n}`);
  if (notes.length > 0) process.exitCode = 1;
}
