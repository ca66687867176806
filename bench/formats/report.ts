/**
 * The results page: Markdown tables and SVG charts rendered from a run.
 * Rendering is a pure function of the run, so the same seed writes the same
 * bytes; the one line that names the date, machine and runtime is kept
 * apart from the tables.
 *
 * @module
 */
import { type Outcome, OUTCOMES } from "./checker.ts";
import {
  DRIFT_KINDS,
  DRIFT_NOTES,
  type DriftKind,
  TWO_PLACEMENTS,
} from "./drift.ts";
import {
  COST_LABELS,
  COST_ROWS,
  type CostRow,
  EDITS_PER_TASK,
} from "./cost.ts";
import { PEER_NAME } from "./peer.ts";
import { dialectVerdict } from "./_dialect_rows.ts";
import { FORMAT_NOTES, type FormatName, FORMATS } from "./fixes.ts";
import { KIND_NOTES, MUTATION_KINDS } from "./mutations.ts";
import type { RunResult } from "./run.ts";
import { mean, median, num, pct, ratio, table } from "./_stats.ts";
import { type TokenizerName, TOKENIZERS } from "./tokens.ts";

/** The command that regenerates the page. */
export const COMMAND = "deno task bench:formats";

const TOKENIZER_LABEL: Record<TokenizerName, string> = {
  o200k: "o200k (`gpt-tokenizer`)",
  claude: "Claude (`@anthropic-ai/tokenizer`)",
};

const MODEL_LINE =
  "Against a model: `HASHLINE_BENCH_URL=… HASHLINE_BENCH_KEY=… HASHLINE_BENCH_MODEL=… node_modules/.bin/deno run -A bench/formats/model_main.ts` runs the same tasks through this project's tool registry on any OpenAI-compatible endpoint — hashline with its default `LINE:HH|` read and with the lean `LINE|` read (bare-number ops) side by side, and str_replace — and prints success, input and output tokens and turns per format and read form (`--read hash|lean` runs one; `--scripted` is a dry run with a scripted stand-in and no endpoint); no model was reachable where these tables were made.";

type Tally = Record<Outcome, number>;

const PEER_SECTION = [
  `\`${PEER_NAME}\` (Bun-only) runs in a Bun subprocess: \`bench/formats/peer_driver.ts\` takes a batch of trials as JSON on stdin and answers with JSON. For each trial it writes the file as read to an \`InMemoryFilesystem\`, records it in an \`InMemorySnapshotStore\` with every line marked as seen (a whole-file read), shows the read with the package's own \`formatHashlineHeader\` and \`formatNumberedLines\` (\`[PATH#TAG]\`, then \`N:TEXT\`), puts the drifted file in place, and applies the patch with \`Patcher.apply\`, which checks the tag, replays the edit over the recorded snapshot and 3-way merges it onto the file now when the file changed. A throw with the file unchanged counts as a refusal.`,
  "",
  "How each fix is written in its syntax (`S`..`E`: the 1-based lines of the read the fix replaces, `N`: the line an insertion follows), under the read's `[PATH#TAG]` header:",
  "",
  "- replace lines: `PUT S.=E:` then one `+TEXT` row per new line (`+` alone for a blank line);",
  "- delete lines: `CUT S.=E`;",
  "- insert lines: `PUT >N:` then `+TEXT` rows (`PUT <1:` before the first line).",
  "",
  "The same fixes, anchors and drifted files as every other row; hashline's fix names the same lines (`= S:HH..E:HH`, `- S:HH..E:HH`, `+ N:HH`). On the no-drift control every peer trial must be correct; a miss there would be an adapter fault and is listed in the notes.",
].join("\n");

function tally(result: RunResult): Map<string, Map<DriftKind, Tally>> {
  const out = new Map<string, Map<DriftKind, Tally>>();
  for (const a of result.appliers) {
    const m = new Map<DriftKind, Tally>();
    for (const d of DRIFT_KINDS) m.set(d, { CORRECT: 0, REFUSED: 0, WRONG: 0 });
    out.set(a.id, m);
  }
  for (const t of result.trials) out.get(t.applier)!.get(t.drift)![t.outcome]++;
  return out;
}

function totals(m: Map<DriftKind, Tally>): Tally & { all: number } {
  const t = { CORRECT: 0, REFUSED: 0, WRONG: 0, all: 0 };
  for (const v of m.values()) {
    for (const o of OUTCOMES) {
      t[o] += v[o];
      t.all += v[o];
    }
  }
  return t;
}

/** Drift table: one row per tool, `correct/refused/wrong` per drift kind. */
export function driftTable(result: RunResult): string {
  const t = tally(result);
  const head = [
    "tool",
    ...DRIFT_KINDS.map((d) => d.replaceAll("_", " ")),
    "silent wrong",
  ];
  const rows = result.appliers.map((a) => {
    const m = t.get(a.id)!;
    const all = totals(m);
    return [
      a.label,
      ...DRIFT_KINDS.map((d) => {
        const v = m.get(d)!;
        return `${v.CORRECT}/${v.REFUSED}/${v.WRONG}`;
      }),
      pct(all.WRONG, all.all),
    ];
  });
  return table(head, rows);
}

function tokenValues(
  result: RunResult,
  f: FormatName,
  tk: TokenizerName,
  which: "bare" | "wrapped",
  kind?: string,
): number[] {
  return result.tasks.filter((r) => kind === undefined || r.kind === kind).map((
    r,
  ) => r.tokens[f][tk][which]);
}

/** Overall token table for one tokenizer. */
export function tokenTable(result: RunResult, tk: TokenizerName): string {
  const base = mean(tokenValues(result, "str_replace", tk, "wrapped"));
  const baseBare = mean(tokenValues(result, "str_replace", tk, "bare"));
  const rows = FORMATS.map((f) => {
    const bare = tokenValues(result, f, tk, "bare");
    const wrapped = tokenValues(result, f, tk, "wrapped");
    return [
      f,
      num(median(bare), 1),
      num(mean(bare), 1),
      ratio(mean(bare), baseBare),
      num(median(wrapped), 1),
      num(mean(wrapped), 1),
      ratio(mean(wrapped), base),
    ];
  });
  const peer = result.tasks.map((r) => r.peerTokens).filter((c) => c !== null);
  if (peer.length === result.tasks.length && peer.length > 0) {
    const bare = peer.map((c) => c![tk].bare);
    const wrapped = peer.map((c) => c![tk].wrapped);
    rows.push([
      `${PEER_NAME} (\`[PATH#TAG]\` + \`PUT\`)`,
      num(median(bare), 1),
      num(mean(bare), 1),
      ratio(mean(bare), baseBare),
      num(median(wrapped), 1),
      num(mean(wrapped), 1),
      ratio(mean(wrapped), base),
    ]);
  }
  return table(
    [
      "format",
      "bare median",
      "bare mean",
      "bare vs str_replace",
      "tool call median",
      "tool call mean",
      "tool call vs str_replace",
    ],
    rows,
  );
}

/** Per-kind token table (tool-call payloads) for one tokenizer. */
export function kindTokenTable(result: RunResult, tk: TokenizerName): string {
  const shown = FORMATS.filter((f) => f !== "whole_file");
  const rows = MUTATION_KINDS.filter((k) =>
    result.tasks.some((r) => r.kind === k)
  ).map((k) => {
    const base = mean(tokenValues(result, "str_replace", tk, "wrapped", k));
    return [
      k,
      ...shown.map((f) => {
        const v = tokenValues(result, f, tk, "wrapped", k);
        return `${num(median(v))} / ${num(mean(v))} (${ratio(mean(v), base)})`;
      }),
      num(mean(tokenValues(result, "whole_file", tk, "wrapped", k))),
    ];
  });
  return table(["kind", ...shown, "whole_file mean"], rows);
}

interface ReadCost {
  plain: number;
  hashline: number;
  catN: number;
  lines: number;
  editHashline: number;
  editStr: number;
}

function readCost(result: RunResult, tk: TokenizerName): ReadCost {
  return {
    plain: mean(result.tasks.map((r) => r.read[tk].plain)),
    hashline: mean(result.tasks.map((r) => r.read[tk].hashline)),
    catN: mean(result.tasks.map((r) => r.read[tk].catN)),
    lines: mean(result.tasks.map((r) => r.lines)),
    editHashline: mean(tokenValues(result, "hashline_text", tk, "wrapped")),
    editStr: mean(tokenValues(result, "str_replace", tk, "wrapped")),
  };
}

function breakEven(extraRead: number, saving: number): string {
  if (extraRead <= 0) return "0 (the read is not dearer)";
  if (saving <= 0) return "never (edits are not cheaper)";
  return num(extraRead / saving, 1);
}

/** Read-cost table: a whole-file read in three numberings, and the break-even. */
export function readTable(result: RunResult): string {
  const rows = TOKENIZERS.map((tk) => {
    const c = readCost(result, tk);
    const saving = c.editStr - c.editHashline;
    return [
      TOKENIZER_LABEL[tk],
      num(c.plain),
      `${num(c.hashline)} (+${num((c.hashline - c.plain) / c.lines, 2)}/line)`,
      `${num(c.catN)} (+${num((c.catN - c.plain) / c.lines, 2)}/line)`,
      num(saving, 1),
      breakEven(c.hashline - c.catN, saving),
      breakEven(c.hashline - c.plain, saving),
    ];
  });
  return table(
    [
      "tokenizer",
      "plain read",
      "`LINE:HH|` read",
      "`cat -n` read",
      "tokens saved per edit",
      "break-even edits/read vs `cat -n`",
      "break-even vs plain",
    ],
    rows,
  );
}

/**
 * Read forms: tokens a whole-file read adds over the plain text, per line
 * (means over tasks), per tokenizer.
 */
export function readFormTable(result: RunResult): string {
  const forms: [
    string,
    (r: RunResult["tasks"][number], tk: TokenizerName) => number | null,
  ][] = [
    ["`LINE:HH|` (hashline default)", (r, tk) => r.read[tk].hashline],
    ["`LINE|` (hashline lean)", (r, tk) => r.read[tk].lean],
    ["`cat -n`", (r, tk) => r.read[tk].catN],
    [`\`[PATH#TAG]\` + \`N:TEXT\` (${PEER_NAME})`, (r, tk) => r.read[tk].peer],
  ];
  const lines = result.tasks.reduce((a, r) => a + r.lines, 0);
  const rows = forms.map(([label, get]) => [
    label,
    ...TOKENIZERS.map((tk) => {
      let over = 0;
      for (const r of result.tasks) {
        const v = get(r, tk);
        if (v === null) return "n/a";
        over += v - r.read[tk].plain;
      }
      return lines === 0 ? "n/a" : `+${num(over / lines, 2)}`;
    }),
  ]);
  return table(
    [
      "read form",
      ...TOKENIZERS.map((tk) => `${TOKENIZER_LABEL[tk]} over plain, per line`),
    ],
    rows,
    ["l", "r", "r"],
  );
}

/** Means of one per-task row, or null when some task lacks it. */
function costMeans(
  result: RunResult,
  row: CostRow,
  tk: TokenizerName,
): { read: number; edit: number } | null {
  const reads: number[] = [];
  const edits: number[] = [];
  for (const r of result.tasks) {
    const c = r.costs[tk][row];
    if (c === null) return null;
    reads.push(c.read);
    edits.push(c.edit);
  }
  return reads.length === 0 ? null : { read: mean(reads), edit: mean(edits) };
}

/**
 * Cost per task: the tool definitions once, one whole-file read and k edit
 * calls (means over tasks), per row, for one tokenizer.
 */
export function costTable(result: RunResult, tk: TokenizerName): string {
  const rows = COST_ROWS.map((row) => {
    const m = costMeans(result, row, tk);
    const defs = result.toolDefs[row][tk];
    if (m === null) {
      return [
        COST_LABELS[row],
        num(defs),
        "n/a",
        "n/a",
        ...EDITS_PER_TASK.map(() => "n/a"),
      ];
    }
    return [
      COST_LABELS[row],
      num(defs),
      num(m.read),
      num(m.edit, 1),
      ...EDITS_PER_TASK.map((k) => num(defs + m.read + k * m.edit)),
    ];
  });
  return table(
    [
      "read + edits",
      "tool definitions",
      "read (mean)",
      "edit call (mean)",
      ...EDITS_PER_TASK.map((k) => `task, ${k} edit${k === 1 ? "" : "s"}`),
    ],
    rows,
    ["l", "r", "r", "r", "r", "r", "r"],
  );
}

/** The hashline rows the verdict speaks of. */
const RECORD_ROWS = [
  "hashline_record",
  "hashline_record_rebase",
  "hashline_workspace",
  "hashline_workspace_rebase",
] as const;

/** What the verdict found. */
export interface Verdict {
  /** Whether the peer ran. */
  peer: boolean;
  /** Per rebase-on row: kinds where hashline has fewer correct results than the peer (two-placement trials left out). */
  behindPeer: Record<string, DriftKind[]>;
  /** Per rebase-on row: two-placement trials it did not refuse. */
  twoPlacementWrites: Record<string, number>;
  /** Per record row: wrong results per kind (only kinds with any). */
  silentWrong: Record<string, Partial<Record<DriftKind, number>>>;
}

/**
 * The drift checks hashline is held to (docs/patch-format.md, "Rebase"), on
 * this run: with rebase on, at least the peer's correct count on every drift
 * kind (trials where the file fits two placements left out; those must be
 * refused), and 0 silent wrong on every kind with the read record, rebase
 * off and on.
 */
export function verdict(result: RunResult): Verdict {
  const t = tally(result);
  const hasPeer = t.has("peer");
  const out: Verdict = {
    peer: hasPeer,
    behindPeer: {},
    twoPlacementWrites: {},
    silentWrong: {},
  };
  for (const id of RECORD_ROWS) {
    const m = t.get(id);
    if (!m) continue;
    const wrong: Partial<Record<DriftKind, number>> = {};
    for (const d of DRIFT_KINDS) {
      if (m.get(d)!.WRONG > 0) wrong[d] = m.get(d)!.WRONG;
    }
    out.silentWrong[id] = wrong;
    if (!id.endsWith("_rebase")) continue;
    out.twoPlacementWrites[id] = result.trials.filter((x) =>
      x.applier === id && TWO_PLACEMENTS.has(x.drift) && x.outcome !== "REFUSED"
    ).length;
    if (!hasPeer) {
      continue;
    }
    const p = t.get("peer")!;
    out.behindPeer[id] = DRIFT_KINDS.filter((d) =>
      !TWO_PLACEMENTS.has(d) && m.get(d)!.CORRECT < p.get(d)!.CORRECT
    );
  }
  return out;
}

/**
 * The verdict in sentences.
 *
 * @param result The run.
 * @returns One line per check.
 */
export function verdictLines(result: RunResult): string[] {
  const v = verdict(result);
  const label = (id: string): string =>
    result.appliers.find((a) => a.id === id)?.label ?? id;
  const lines: string[] = [];
  for (const [id, kinds] of Object.entries(v.behindPeer)) {
    lines.push(
      `${label(id)}: ${
        kinds.length === 0 ? "yes" : `no (fewer on ${kinds.join(", ")})`
      } — at least the peer's correct count on every drift kind (two-placement trials left out).`,
    );
  }
  if (!v.peer) {
    lines.push(`${PEER_NAME} did not run: no comparison with the peer.`);
  }
  for (const [id, n] of Object.entries(v.twoPlacementWrites)) {
    lines.push(
      `${label(id)}: ${
        n === 0 ? "yes" : `no (${n} written)`
      } — every trial where the file fits two placements (${
        [...TWO_PLACEMENTS].join(", ")
      }) refused.`,
    );
  }
  for (const [id, wrong] of Object.entries(v.silentWrong)) {
    const e = Object.entries(wrong);
    lines.push(
      `${label(id)}: ${
        e.length === 0
          ? "yes"
          : `no (${e.map(([k, n]) => `${k} ${n}`).join(", ")})`
      } — 0 silent wrong on every drift kind.`,
    );
  }
  const t = tally(result);
  lines.push(
    ...dialectVerdict(
      (row, kind) => t.get(row)?.get(kind as DriftKind),
      DRIFT_KINDS,
    ),
  );
  return lines;
}

function foldSentence(result: RunResult): string {
  const f = result.fold;
  return `Of ${
    num(f.changed)
  } anchored lines whose text a drift changed, the 2-hex fold alone matched ${
    num(f.foldMatched)
  } (${
    pct(f.foldMatched, f.changed)
  }; chance is 1 in 256): with no read record those edits would have passed the fold check. ` +
    `Silent wrong edits: ${
      num(f.foldOnlyWrong)
    } trial(s) with the fold alone, ${
      num(f.recordWrong)
    } with the session's 32-bit record.` +
    (f.recordWrong > 0
      ? " Where the record still lets a wrong write through, the anchored lines read exactly as they were read: a line moved onto a line of identical text."
      : "");
}

/**
 * How many CORRECT cells of the `reformat` drift had the fix's own new lines
 * in the style they were written in (the result, formatted again, is
 * exactly the reformatted fixed file, and no other line differs), per tool.
 */
function restyleSentence(result: RunResult): string {
  const counts = new Map<string, number>();
  for (const t of result.trials) {
    if (t.restyled) counts.set(t.applier, (counts.get(t.applier) ?? 0) + 1);
  }
  const label = new Map(result.appliers.map((a) => [a.id, a.label]));
  const parts = [...counts].map(([id, n]) => `${label.get(id) ?? id}: ${n}`);
  return "On `reformat`, a write also counts as CORRECT when the only lines that differ from the reformatted fixed file are the fix's own new lines, in the style the edit wrote them (formatting the result again gives exactly the reformatted fixed file): the fix is where it belongs and the reformat is kept everywhere else, but no tool can know to restyle text it was given. " +
    (parts.length === 0
      ? "No trial needed this on this run."
      : `Trials that needed it: ${parts.join("; ")}.`);
}

/**
 * The drift-free broken-fix column: how many correct fixes, and fixes with a
 * closing line dropped or duplicated, the syntax check flags.
 */
export function brokenFixTable(result: RunResult): string {
  const b = result.brokenFix;
  const row = (label: string, total: number, flagged: number) => [
    label,
    num(total),
    `${num(flagged)} (${pct(flagged, total)})`,
  ];
  return [
    table([
      "fix (file as read, no drift)",
      "fixes",
      "flagged by the syntax check",
    ], [
      row("correct fix", b.correct, b.correctFlagged),
      row("closing line dropped", b.dropped.total, b.dropped.caught),
      row("closing line duplicated", b.duplicated.total, b.duplicated.caught),
    ]),
    "",
    `Left out: ${
      num(b.unparsable)
    } task(s) whose correct file the grammar itself cannot parse, ${
      num(b.noClosingLine)
    } with no closing line (\`}\`, \`});\`, \`]\` …) at or after the fix.`,
  ].join("\n");
}

function idealTable(): string {
  return table(
    ["drift", "what changes between read and edit", "ideal outcome"],
    DRIFT_KINDS.map((d) => [d, DRIFT_NOTES[d].what, DRIFT_NOTES[d].ideal]),
    ["l", "l", "l"],
  );
}

function sizeLine(result: RunResult): string {
  const pk = result.packages.map((p) => `${p.name} ${p.version}`).join(", ");
  const perDrift = result.tasks.length;
  return `Seed ${result.seed}: ${result.tasks.length} tasks (up to ${result.perKind} per kind, ${MUTATION_KINDS.length} kinds) on ${result.files} files from ${pk}; ${
    num(result.trials.length)
  } trials (every task × ${DRIFT_KINDS.length} drift kinds × ${result.appliers.length} tools; ${perDrift} per cell unless a drift was skipped).`;
}

/**
 * The README block: headline tables and charts, each with its command.
 *
 * @param result The run.
 * @param chartDir Chart folder relative to the README.
 * @returns Markdown.
 */
export function renderReadmeBlock(result: RunResult, chartDir: string): string {
  return [
    `### Edit formats`,
    "",
    `\`${COMMAND}\` (\`bench/formats/\`, full tables in \`bench/RESULTS.md\`). ${
      sizeLine(result)
    }`,
    "",
    `**Drift safety.** Between the read and the edit the file changes; each cell is correct/refused/wrong (ideal outcomes in \`bench/RESULTS.md\`).`,
    "",
    `![Drift outcomes per tool](${chartDir}/formats-drift.svg)`,
    "",
    driftTable(result),
    "",
    ...result.notes.flatMap((n) => [n, ""]),
    foldSentence(result),
    "",
    `**Broken fix** (\`src/check/\`): the correct fix, and the same fix with a closing line dropped or duplicated, each checked by the syntax check as an edit of the file as read:`,
    "",
    brokenFixTable(result),
    "",
    `**Output tokens per fix** (o200k; tool call = the payload inside a minimal \`{"name","arguments"}\` call):`,
    "",
    `![Tokens per format](${chartDir}/formats-tokens.svg)`,
    "",
    tokenTable(result, "o200k"),
    "",
    `**Read cost** of a whole file (mean over tasks), and how many edits per read repay the \`LINE:HH|\` prefix:`,
    "",
    readTable(result),
    "",
    MODEL_LINE,
  ].join("\n");
}

/**
 * The RESULTS.md section: every table.
 *
 * @param result The run.
 * @param chartDir Chart folder relative to RESULTS.md.
 * @returns Markdown.
 */
export function renderResults(result: RunResult, chartDir: string): string {
  const kindsUsed = MUTATION_KINDS.map((k) => [
    k,
    KIND_NOTES[k],
    String(result.tasks.filter((t) => t.kind === k).length),
  ]);
  const skipped = Object.entries(result.skipped).map(([k, n]) => `${k}: ${n}`)
    .join(", ");
  return [
    "## Edit formats",
    "",
    `Regenerate with \`${COMMAND}\` (\`bench/formats/\`; same seed, same tables). ${
      sizeLine(result)
    }`,
    skipped === ""
      ? ""
      : `\nDrifts skipped because prettier could not parse the file: ${skipped}.`,
    "",
    "### Drift safety",
    "",
    "Each fix is made from a read of the buggy file; before it arrives, the file changes as below. CORRECT: the result is exactly the drifted file with the intended fix where it still belongs (every other change kept). REFUSED: nothing written. WRONG: anything else. Cells: correct/refused/wrong; the last column is the share of all the tool's trials that wrote a wrong file.",
    "",
    idealTable(),
    "",
    `![Drift outcomes per tool](${chartDir}/formats-drift.svg)`,
    "",
    driftTable(result),
    "",
    restyleSentence(result),
    "",
    ...result.notes.flatMap((n) => [n, ""]),
    "Drift checks on this run:",
    "",
    ...verdictLines(result).map((l) => `- ${l}`),
    "",
    foldSentence(result),
    "",
    table(
      ["tool", "payload", "semantics"],
      result.appliers.map((a) => [a.label, a.format, a.semantics]),
      ["l", "l", "l"],
    ),
    "",
    "The text and JSON forms of a hashline patch parse to the same ops, so hashline is applied once per trial (text form).",
    "",
    "### Broken fix",
    "",
    "Drift-free: each task's correct fix, and the same fix with the first closing line at or after its region dropped or duplicated (the commonest way an edit breaks a file), checked by the syntax check (`src/check/`, tree-sitter) as an edit of the file as read. Every broken one must be flagged and no correct one.",
    "",
    brokenFixTable(result),
    "",
    "### Output tokens per fix",
    "",
    `![Tokens per format](${chartDir}/formats-tokens.svg)`,
    "",
    table(
      ["format", "how the fix is written"],
      FORMATS.map((f) => [f, FORMAT_NOTES[f]]),
      ["l", "l"],
    ),
    "",
    ...TOKENIZERS.flatMap((tk) => [
      `${TOKENIZER_LABEL[tk]}, all tasks:`,
      "",
      tokenTable(result, tk),
      "",
      `${
        TOKENIZER_LABEL[tk]
      }, tool-call payload per kind (median / mean, and the mean's ratio to str_replace):`,
      "",
      kindTokenTable(result, tk),
      "",
    ]),
    "The Claude tokenizer on npm is the one Anthropic published for earlier models; newer models count somewhat differently, so read its column as indicative.",
    "",
    "### Read cost",
    "",
    readTable(result),
    "",
    "Break-even: the extra tokens of a `LINE:HH|` read over the other read, divided by the tokens a hashline text edit saves against a str_replace edit (tool-call payloads, means).",
    "",
    "### Read forms",
    "",
    "What a whole-file read adds to the plain text, per line (means over the tasks' files). The lean form is the library's own read when this build offers `anchors: \"lean\"`, else the form docs/reads.md fixes (`LINE|content`) made from the `LINE:HH|` read; the peer's is its own `formatHashlineHeader` + `formatNumberedLines`.",
    "",
    readFormTable(result),
    "",
    "### Cost per task",
    "",
    "What a task costs a model: the tool definitions (counted once), one whole-file read of the file as read, and k edit calls of the task's fix (means over tasks). Tool definitions: the `files` set (`read_file`, `edit_file`, `write_file`) of this project's registry in the row's edit format; for the peer, its own edit-tool text (`src/prompt.md`) with an `{ input }` schema beside the registry's `read_file` (the package ships no tool schema). Outline row: an outline read (`read(path, { outline: true })`) plus a read of the block around the edit, n/a when this build has no outline read.",
    "",
    ...TOKENIZERS.flatMap((tk) => [
      `${TOKENIZER_LABEL[tk]}:`,
      "",
      costTable(result, tk),
      "",
    ]),
    "### The peer",
    "",
    PEER_SECTION,
    "",
    "### Model harness",
    "",
    MODEL_LINE,
    "",
    "### Tasks",
    "",
    table(
      ["package", "version", "files of 100–1500 lines", "files used"],
      result.packages.map((
        p,
      ) => [p.name, p.version, String(p.eligible), String(p.picked)]),
    ),
    "",
    table(["kind", "mutation (the fix undoes it)", "tasks"], kindsUsed, [
      "l",
      "l",
      "r",
    ]),
    "",
    `Versions: ${
      Object.entries(result.versions).map(([k, v]) => `${k} ${v}`).join(", ")
    }.`,
  ].join("\n");
}

const COLORS: Record<Outcome, string> = {
  CORRECT: "#2e7d32",
  REFUSED: "#9e9e9e",
  WRONG: "#c62828",
};

function esc(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(
    ">",
    "&gt;",
  ).replaceAll("`", "");
}

/**
 * Stacked bars of outcomes per tool, over all drift kinds.
 *
 * @param result The run.
 * @returns SVG text.
 */
export function driftChart(result: RunResult): string {
  const t = tally(result);
  const left = 360;
  const width = 360;
  const rowH = 22;
  const top = 40;
  const h = top + result.appliers.length * rowH + 20;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${
      left + width + 70
    }" height="${h}" font-family="sans-serif" font-size="12">`,
    `<text x="8" y="18" font-size="14" font-weight="bold">Outcome of every trial, all drift kinds (${COMMAND})</text>`,
  ];
  OUTCOMES.forEach((o, i) => {
    parts.push(
      `<rect x="${left + i * 110}" y="26" width="10" height="10" fill="${
        COLORS[o]
      }"/>`,
      `<text x="${left + 14 + i * 110}" y="35">${o.toLowerCase()}</text>`,
    );
  });
  result.appliers.forEach((a, i) => {
    const all = totals(t.get(a.id)!);
    const y = top + i * rowH;
    parts.push(
      `<text x="${left - 6}" y="${y + 15}" text-anchor="end">${
        esc(a.label)
      }</text>`,
    );
    let x = left;
    for (const o of OUTCOMES) {
      const w = all.all === 0 ? 0 : (width * all[o]) / all.all;
      if (w > 0) {
        parts.push(
          `<rect x="${x.toFixed(1)}" y="${y + 3}" width="${
            w.toFixed(1)
          }" height="${rowH - 6}" fill="${COLORS[o]}"/>`,
        );
      }
      x += w;
    }
    parts.push(
      `<text x="${left + width + 6}" y="${y + 15}">${
        pct(all.WRONG, all.all)
      } wrong</text>`,
    );
  });
  parts.push("</svg>");
  return parts.join("\n") + "\n";
}

/**
 * Bars of mean tool-call tokens per format, both tokenizers.
 *
 * @param result The run.
 * @returns SVG text.
 */
export function tokenChart(result: RunResult): string {
  const shown = FORMATS.filter((f) => f !== "whole_file");
  const means = (f: FormatName, tk: TokenizerName): number =>
    mean(tokenValues(result, f, tk, "wrapped"));
  const max = Math.max(
    ...shown.flatMap((f) => TOKENIZERS.map((tk) => means(f, tk))),
  );
  const left = 130;
  const width = 420;
  const groupH = 34;
  const top = 40;
  const fills: Record<TokenizerName, string> = {
    o200k: "#1565c0",
    claude: "#ef6c00",
  };
  const rows = [...shown, "whole_file" as const];
  const h = top + rows.length * groupH + 10;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${
      left + width + 150
    }" height="${h}" font-family="sans-serif" font-size="12">`,
    `<text x="8" y="18" font-size="14" font-weight="bold">Mean output tokens per fix, as a tool call (${COMMAND})</text>`,
  ];
  TOKENIZERS.forEach((tk, i) => {
    parts.push(
      `<rect x="${left + i * 150}" y="26" width="10" height="10" fill="${
        fills[tk]
      }"/>`,
      `<text x="${left + 14 + i * 150}" y="35">${tk}</text>`,
    );
  });
  rows.forEach((f, i) => {
    const y = top + i * groupH;
    parts.push(
      `<text x="${left - 6}" y="${y + 19}" text-anchor="end">${f}</text>`,
    );
    TOKENIZERS.forEach((tk, k) => {
      const v = means(f, tk);
      const clipped = v > max;
      const w = (width * Math.min(v, max)) / max;
      const by = y + 4 + k * 13;
      parts.push(
        `<rect x="${left}" y="${by}" width="${
          w.toFixed(1)
        }" height="12" fill="${fills[tk]}"${
          clipped ? ' fill-opacity="0.5"' : ""
        }/>`,
      );
      parts.push(
        `<text x="${left + w + 4}" y="${by + 10}">${num(v, 1)}${
          clipped ? " (off scale)" : ""
        }</text>`,
      );
    });
  });
  parts.push("</svg>");
  return parts.join("\n") + "\n";
}
