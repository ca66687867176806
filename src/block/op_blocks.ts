/**
 * Block anchors and bare line numbers in a patch with file operations,
 * moves or copies (docs/patch-format.md "Block anchors"): the line ops'
 * blocks and the moves' source and target blocks, each resolved on its file
 * as validated into a plain range; a move's bare numbers (after a lean
 * read) into the anchors the session's record holds.
 *
 * @module
 */
import { pushAll } from "../_internal/arrays.ts";
import { foldHash, hex2 } from "../hash/fnv.ts";
import { parseBareAnchor } from "../anchor/lean.ts";
import {
  type BlockSource,
  expandBlocks,
  hasBlockAnchors,
  isBlockAnchor,
} from "./expand.ts";
import { splitLines } from "../anchor/split.ts";
import type { LineMemory } from "../patch/memory.ts";
import { opLabel, type Problem } from "../patch/problems.ts";
import { blockFieldOf } from "../patch/ops.ts";
import type { MoveOp, Patch, PatchOp } from "../patch/types.ts";
import type { Target } from "../fs/confine.ts";

/** What parses a file's content into the structure its blocks are resolved on. */
export interface StructureSource {
  /** The file's structure, or why it has none (its path picks the grammar). */
  structure(path: string, text: string): Promise<BlockSource>;
}

/** The part of a workspace that block expansion reads: its parser. */
export interface BlockScope {
  /** Parses files for their blocks. */
  readonly syntax: StructureSource;
}

/** A file of the patch as loaded under its lock (text null: it does not exist, or is a symlink kept as itself). */
export interface Loaded {
  target: Target;
  text: string | null;
  bytes?: Uint8Array;
  memory?: LineMemory;
  /** The file has the stamp the session's record holds (unchanged since that read). */
  unchanged?: boolean;
}

/**
 * Block anchors (`L:HH*`, and `N*` after a lean read) in the line ops of a
 * patch that also moves lines or creates, deletes or renames files: each
 * resolves on its file as validated, by the rules of any block anchor (every
 * line of the block read and unchanged), into a plain range. A file the
 * session never read is left to the read rule, which refuses it whole.
 */
export async function opBlocks(
  ctx: BlockScope,
  patch: Patch,
  loaded: Map<string, Loaded>,
  problems: Problem[],
  notes: string[],
  rebase: boolean,
): Promise<Patch> {
  const files = [];
  for (const f of patch.files) {
    const l = loaded.get(f.path);
    if (!l || l.text === null || !l.memory || !hasBlockAnchors(f.ops)) {
      files.push(f);
      continue;
    }
    const memory = l.memory;
    const ops = f.ops.map((op, index): PatchOp => {
      const field = blockFieldOf(op);
      if (field === undefined) return op;
      const text = (op as unknown as Record<string, string>)[field];
      const bare = parseBareAnchor(text);
      if (!bare?.block) return op;
      const h = memory.hash32(bare.line);
      if (h === undefined) {
        problems.push({
          code: "NOT_READ",
          path: f.path,
          line: bare.line,
          message: `In op ${
            index + 1
          } (${op.op} ${text}), line ${bare.line} was never shown to this session: read it first (offset ${bare.line}), then resend.`,
        });
        return op;
      }
      return {
        ...op,
        [field]: `${bare.line}:${hex2(foldHash(h))}*`,
      } as PatchOp;
    });
    const source = await ctx.syntax.structure(f.path, l.text);
    const out = expandBlocks(
      ops,
      splitLines(l.text).lines,
      source,
      memory,
      f.path,
      { rebase },
    );
    pushAll(problems, out.problems);
    pushAll(notes, out.notes.map((n) => `${f.path} ${n}`));
    files.push({ ...f, ops: out.ops });
  }
  return { ...patch, files };
}

/**
 * A move or copy whose source is a block (`start: "L:HH*"`) or whose target
 * is after one (`after: "C*"`) takes the block's lines, resolved on the file
 * as validated by the rules of any block anchor (every line read and
 * unchanged): the source becomes the range L..E, the target E, the block's
 * last line.
 */
export async function moveBlocks(
  ctx: BlockScope,
  patch: Patch,
  loaded: Map<string, Loaded>,
  problems: Problem[],
  rebase: boolean,
): Promise<Patch> {
  const expand = async (
    path: string,
    op: PatchOp,
    label: string,
  ): Promise<PatchOp | null> => {
    const l = loaded.get(path);
    if (!l || l.text === null) return op;
    const source = await ctx.syntax.structure(path, l.text);
    const out = expandBlocks(
      [op],
      splitLines(l.text).lines,
      source,
      l.memory,
      path,
      { rebase },
    );
    // The problems name the move or copy as sent, not the op it was resolved as.
    const as = opLabel(op, 0);
    problems.push(
      ...out.problems.map((p) => ({
        ...p,
        message: p.message.replace(as, label),
      })),
    );
    return out.problems.length > 0 ? null : out.ops[0];
  };
  const files = [];
  for (const f of patch.files) {
    if (
      !f.moves?.some((m) => isBlockAnchor(m.start) || isBlockAnchor(m.after))
    ) {
      files.push(f);
      continue;
    }
    const moves: MoveOp[] = [];
    for (const m of f.moves) {
      let next: MoveOp = m;
      if (isBlockAnchor(m.start) && m.end === undefined) {
        const op = await expand(
          f.path,
          { op: "delete", start: m.start },
          `${m.op} ${m.start}`,
        );
        if (op?.op === "delete") {
          next = {
            ...next,
            start: op.start,
            ...(op.end ? { end: op.end } : {}),
          };
        }
      }
      if (isBlockAnchor(m.after)) {
        const op = await expand(
          m.to ?? f.path,
          { op: "insert_after", anchor: m.after!, lines: [""] },
          `${m.op} ${m.start} target after ${m.after}`,
        );
        if (op?.op === "insert_after") next = { ...next, after: op.anchor };
      }
      moves.push(next);
    }
    files.push({ ...f, moves });
  }
  return { ...patch, files };
}

/**
 * Bare line numbers in moves and copies (`12`, `12*`, after a lean read)
 * become the anchors the session's record holds for those lines: the source
 * span against the source file's record, the target gap against the target
 * file's. A line the record does not hold is `NOT_READ` (`OUT_OF_RANGE`
 * past the end of the file); a file with no
 * record at all is left to the move rules, which ask for a read of it.
 */
export function bareMoves(
  patch: Patch,
  loaded: Map<string, Loaded>,
  problems: Problem[],
): Patch {
  const anchorOf = (
    text: string | undefined,
    path: string,
    label: string,
  ): string | undefined => {
    const bare = parseBareAnchor(text);
    const memory = loaded.get(path)?.memory;
    if (!bare || !memory) return text;
    const h = memory.hash32(bare.line);
    const now = loaded.get(path)?.text;
    const count = h === undefined && now != null
      ? splitLines(now).lines.length
      : undefined;
    if (count !== undefined && bare.line > count) {
      problems.push({
        code: "OUT_OF_RANGE",
        path,
        line: bare.line,
        message:
          `${label}: line ${bare.line} is out of range: the file has ${count} ${
            count === 1 ? "line" : "lines"
          }; name a line from 1 to ${count}, then resend.`,
      });
      return text;
    }
    if (h === undefined) {
      problems.push({
        code: "NOT_READ",
        path,
        line: bare.line,
        message:
          `${label}: line ${bare.line} was never shown to this session: read it first (offset ${bare.line}), then resend.`,
      });
      return text;
    }
    return `${bare.line}:${hex2(foldHash(h))}${bare.block ? "*" : ""}`;
  };
  const files = patch.files.map((f) => {
    if (!f.moves?.length) return f;
    const moves = f.moves.map((m): MoveOp => {
      const label = `${m.op} ${m.start}${
        m.end !== undefined ? `..${m.end}` : ""
      }`;
      const target = m.to ?? f.path;
      const next: MoveOp = { ...m, start: anchorOf(m.start, f.path, label)! };
      if (m.end !== undefined) next.end = anchorOf(m.end, f.path, label);
      if (m.after !== undefined) next.after = anchorOf(m.after, target, label);
      if (m.before !== undefined) {
        next.before = anchorOf(m.before, target, label);
      }
      return next;
    });
    return { ...f, moves };
  });
  return { ...patch, files };
}
