/**
 * Block anchors in a patch (docs/patch-format.md, "Block anchors"): `replace` or `delete` with
 * `start: "L:HH*"` and no `end`, and `insert_after` with `anchor: "L:HH*"`,
 * are turned into the plain range or anchor of the block that opens on line
 * L of the file as validated, or into typed problems. What comes out is
 * judged by the ordinary rules, so the block's last line and every line
 * inside it are checked as any range (§3 rule 2).
 *
 * @module
 */
import { parseAnchor } from "../anchor/anchor.ts";
import { parseBareAnchor } from "../anchor/lean.ts";
import { foldHash, hex2, lineHash32 } from "../hash/fnv.ts";
import { opLabel, type Problem, problem } from "../patch/problems.ts";
import { freshAround } from "../patch/fresh.ts";
import { lookupFromLines } from "../patch/lookup.ts";
import { rebaseOps } from "../patch/rebase.ts";
import type { PatchOp, ReadMemory } from "../patch/types.ts";
import { nearestOpeners, resolveBlock, type SyntaxNode } from "./resolve.ts";

/** The suffix that makes an anchor a block anchor. */
export const BLOCK_SUFFIX = "*";

/**
 * Whether an anchor is written as a block anchor (`12:a3*`).
 *
 * @param text An anchor as sent.
 * @returns True when it ends with `*`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isBlockAnchor } from "./expand.ts";
 * assert.equal(isBlockAnchor("12:a3*"), true);
 * assert.equal(isBlockAnchor("12:a3"), false);
 * ```
 */
export function isBlockAnchor(text: unknown): boolean {
  return typeof text === "string" && text.trimEnd().endsWith(BLOCK_SUFFIX);
}

/**
 * Whether any op of a list names a block anchor (in any field).
 *
 * @param ops The ops of one file.
 * @returns True when one does.
 */
export function hasBlockAnchors(ops: readonly PatchOp[]): boolean {
  return ops.some((op) =>
    ("start" in op && isBlockAnchor(op.start)) ||
    ("end" in op && isBlockAnchor(op.end)) ||
    ("anchor" in op && isBlockAnchor(op.anchor))
  );
}

/**
 * The field of an op that may hold a block anchor: `start` of a replace
 * or delete, `anchor` of an insert_after (docs/patch-format.md "Block
 * anchors"); other ops take none.
 *
 * @param op One op.
 * @returns The field's name, or null.
 */
export function blockField(op: PatchOp): "start" | "anchor" | null {
  return op.op === "replace" || op.op === "delete"
    ? "start"
    : op.op === "insert_after"
    ? "anchor"
    : null;
}

/**
 * The `NOT_A_BLOCK` problem of a file read by streaming, too large to parse.
 *
 * @param path The file, as shown to the model.
 * @returns The problem.
 */
export function tooLargeForBlocks(path: string): Problem {
  return problem(
    "NOT_A_BLOCK",
    "the file is too large to resolve block anchors (LINE:HH*) in it: name the lines with a range START..END instead.",
    { path },
  );
}

/** What a file's blocks are resolved on. */
export type BlockSource =
  /** A parsed tree (`root`), or Markdown's headings (`root: null`). */
  | { kind: "tree"; root: SyntaxNode | null }
  /** No structure: why (no grammar, grammar not installed, too large, parse failed). */
  | { kind: "none"; reason: string };

/** The ops with block anchors resolved, the spans named, and any problems. */
export interface BlockExpansion {
  /** The ops, block anchors replaced by plain anchors of the resolved span. */
  ops: PatchOp[];
  /** One note per block op: `op 1: block 12–40`. */
  notes: string[];
  /** `NOT_A_BLOCK`, `NOT_READ`, `STALE_ANCHOR` and `BAD_ANCHOR` problems. */
  problems: Problem[];
}

function anchorOf(n: number, lines: readonly string[]): string {
  return `${n}:${hex2(foldHash(lineHash32(lines[n - 1])))}`;
}

function runs(ns: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ns.length;) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === ns[j] + 1) j++;
    out.push(ns[i] === ns[j] ? `${ns[i]}` : `${ns[i]}–${ns[j]}`);
    i = j + 1;
  }
  return out.join(", ");
}

/**
 * Resolves the block anchors of one file's ops.
 *
 * @param ops The ops, as sent.
 * @param lines The file's lines as validated (without a BOM).
 * @param source The parsed tree, Markdown (`root: null`), or why there is none.
 * @param memory The session's read record (every block line must be in it); none: not asked.
 * @param path Named on each problem.
 * @param options `rebase`: the patch asks for rebase. A block anchor whose
 *   line no longer stands as read is then placed by its opening line (the
 *   drift alignment of docs/patch-format.md#rebase) and resolved in the file
 *   now; it applies only if every line of that block is a remembered line
 *   placed at the same offset, and comes back addressed as read (the
 *   remembered lines the block now spans), for rebase to move with the
 *   file's other ops. Otherwise it is refused here, stale with the lines
 *   around it.
 * @returns The ops with plain anchors, the span notes, and the problems.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { expandBlocks } from "./expand.ts";
 * const md = ["# A", "text", "# B"];
 * const out = expandBlocks([{ op: "delete", start: "1:c8*" }], md, { kind: "tree", root: null });
 * assert.deepEqual(out.problems, []);
 * assert.equal(out.notes[0], "op 1: block 1–2");
 * ```
 */
export function expandBlocks(
  ops: readonly PatchOp[],
  lines: readonly string[],
  source: BlockSource,
  memory?: ReadMemory,
  path?: string,
  options: { rebase?: boolean } = {},
): BlockExpansion {
  const problems: Problem[] = [];
  const notes: string[] = [];
  const add = (code: Problem["code"], message: string, line?: number) =>
    problems.push(problem(code, message, { path, line }));
  const out = ops.map((op, index): PatchOp => {
    const label = opLabel(op, index);
    const misplaced = (("end" in op && isBlockAnchor(op.end)) && "end") ||
      (op.op === "insert_before" && isBlockAnchor(op.anchor) && "anchor") ||
      ((op.op === "replace" || op.op === "delete") && op.end !== undefined &&
        isBlockAnchor(op.start) && "start");
    if (misplaced) {
      add(
        "BAD_ANCHOR",
        `In ${label}, a block anchor (LINE:HH*) cannot stand ${
          misplaced === "start" ? "as the start of a range" : `in ${misplaced}`
        }: it goes alone in start of replace or delete, or in anchor of insert_after. Drop the "*" to name one line.`,
      );
      return op;
    }
    const field = blockField(op);
    if (field === null) return op;
    const text = (op as unknown as Record<string, string>)[field];
    if (!isBlockAnchor(text)) return op;
    let plain = text.trimEnd().slice(0, -1).trimEnd();
    // `N*` after a lean read: the line as this session read it.
    const bare = memory ? parseBareAnchor(text) : null;
    if (bare && memory) {
      const read = memory.hash32(bare.line);
      if (read === undefined) {
        add(
          "NOT_READ",
          `In ${label}, line ${bare.line} was never shown to this session: read it first (offset ${bare.line}), then resend.`,
          bare.line,
        );
        return op;
      }
      plain = `${bare.line}:${hex2(foldHash(read))}`;
    }
    let a;
    try {
      a = parseAnchor(plain);
    } catch {
      add(
        "BAD_ANCHOR",
        `In ${label}, ${
          JSON.stringify(text)
        } is not a block anchor: write LINE:HH* as shown in the read, such as "12:a3*".`,
      );
      return op;
    }
    const start = `${a.line}:${a.hash}`;
    const asLine = { ...op, [field]: start } as PatchOp;
    // A stale or missing anchor is reported by the ordinary rules (unless
    // rebase could move it as the one line it names: see options).
    const standing = a.line <= lines.length && (() => {
      const h = lineHash32(lines[a.line - 1]);
      const remembered = memory?.hash32(a.line);
      return hex2(foldHash(h)) === a.hash &&
        (remembered === undefined || remembered === h);
    })();
    if (!standing && options.rebase) {
      const placed = placeBlock(op, a, lines, source, memory);
      if (placed) {
        notes.push(
          `op ${index + 1}: block ${placed.span[0]}–${placed.span[1]}`,
        );
        return placed.op;
      }
    }
    if (a.line > lines.length) {
      if (!options.rebase) return asLine;
      add(
        "STALE_ANCHOR",
        `In ${label}, the block anchor ${a.line}:${a.hash}* is stale: the file has ${lines.length} lines now, and rebase could not place its block (every line of it must have moved as one, unchanged since this session read it). Read the block where it now stands and resend with its anchor.`,
        a.line,
      );
      return op;
    }
    if (!standing) {
      if (!options.rebase) return asLine;
      const fresh = freshAround(lookupFromLines(lines), a.line);
      problems.push(
        problem(
          "STALE_ANCHOR",
          `In ${label}, the block anchor ${a.line}:${a.hash}* is stale: line ${a.line} no longer holds the line this session read there, and rebase could not place its block (every line of it must have moved as one, unchanged since this session read it). Read the block where it now stands and resend with its anchor; the lines around line ${a.line} now:\n${fresh.text}`,
          { path, line: a.line, shown: fresh.shown },
        ),
      );
      return op;
    }
    if (source.kind === "none") {
      add(
        "NOT_A_BLOCK",
        `In ${label}, line ${a.line} cannot be resolved as a block: ${source.reason}. Name the lines with a range (START..END) instead.`,
        a.line,
      );
      return op;
    }
    const found = resolveBlock(source.root, lines, a.line);
    if (found.kind === "none") {
      if (found.tooDeep) {
        add(
          "NOT_A_BLOCK",
          `In ${label}, line ${a.line} cannot be resolved as a block: ${found.reason}. Name the lines with a range (START..END) instead.`,
          a.line,
        );
        return op;
      }
      if (found.range) {
        add(
          "NOT_A_BLOCK",
          `In ${label}, line ${a.line} opens no block of its own: ${found.reason}. Use the range ${
            anchorOf(found.range.start, lines)
          }..${anchorOf(found.range.end, lines)} instead.`,
          a.line,
        );
        return op;
      }
      const near = nearestOpeners(source.root, lines, a.line);
      const hints = [
        near.above !== undefined ? `${anchorOf(near.above, lines)}* above` : "",
        near.below !== undefined ? `${anchorOf(near.below, lines)}* below` : "",
      ].filter((s) => s !== "");
      add(
        "NOT_A_BLOCK",
        `In ${label}, line ${a.line} opens no multi-line block (${found.reason}). ${
          hints.length > 0
            ? `Nearest block openers: ${hints.join(", ")}.`
            : "No line near it opens a block; name the lines with a range instead."
        }`,
        a.line,
      );
      return op;
    }
    if (memory) {
      const unread: number[] = [];
      const changed: number[] = [];
      for (let n = found.start; n <= found.end; n++) {
        const r = memory.hash32(n);
        if (r === undefined) unread.push(n);
        else if (r !== lineHash32(lines[n - 1])) changed.push(n);
      }
      if (unread.length > 0) {
        add(
          "NOT_READ",
          `${label} names the block of lines ${found.start}–${found.end}, but this session has not read lines ${
            runs(unread)
          }: read them (offset ${unread[0]}, limit ${
            unread[unread.length - 1] - unread[0] + 1
          }), then resend; a block anchor never removes a line you have not seen.`,
          unread[0],
        );
        return op;
      }
      if (changed.length > 0) {
        add(
          "STALE_ANCHOR",
          `${label} names the block of lines ${found.start}–${found.end}, and lines ${
            runs(changed)
          } changed since this session read them: read the block again, then resend.`,
          changed[0],
        );
        return op;
      }
    }
    notes.push(`op ${index + 1}: block ${found.start}–${found.end}`);
    const last = anchorOf(found.end, lines);
    if (op.op === "insert_after") return { ...op, anchor: last };
    return found.end === found.start
      ? asLine
      : { ...op, start, end: last } as PatchOp;
  });
  return { ops: out, notes, problems };
}

/**
 * A block anchor whose opening line moved, placed under rebase: the opening
 * line as read is placed by the alignment, the block resolved where it
 * stands now, and every line of that block must be a remembered line placed
 * at the same offset. Returns the op addressed as read (the block's span
 * mapped back to the lines as read), or null when it cannot be placed.
 */
function placeBlock(
  op: PatchOp,
  a: { line: number; hash: string },
  lines: readonly string[],
  source: BlockSource,
  memory: ReadMemory | undefined,
): { op: PatchOp; span: [number, number] } | null {
  if (!memory || source.kind === "none") return null;
  const asRead = (n: number): string | null => {
    const h = memory.hash32(n);
    return h === undefined ? null : `${n}:${hex2(foldHash(h))}`;
  };
  const start = asRead(a.line);
  if (start !== `${a.line}:${a.hash}`) return null;
  const now = lookupFromLines(lines);
  const opening = rebaseOps([{ op: "delete", start }], now, memory).rebased[0];
  if (!opening) return null;
  const found = resolveBlock(source.root, lines, opening.to[0]);
  if (found.kind === "none" || found.start !== opening.to[0]) return null;
  const lastRead = a.line + found.end - found.start;
  const end = asRead(lastRead);
  if (end === null) return null;
  const whole = rebaseOps(
    [{ op: "delete", start, ...(lastRead > a.line ? { end } : {}) }],
    now,
    memory,
  ).rebased[0];
  if (!whole || whole.to[0] !== found.start || whole.to[1] !== found.end) {
    return null;
  }
  const out = op.op === "insert_after"
    ? { ...op, anchor: end }
    : lastRead === a.line
    ? { ...op, start }
    : { ...op, start, end };
  return { op: out as PatchOp, span: [found.start, found.end] };
}
