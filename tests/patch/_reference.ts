import {
  joinLines,
  type SplitContent,
  splitLines,
  type Terminator,
} from "../../src/anchor/split.ts";
import type { ChangedRegion, PlannedEdit } from "../../src/patch/types.ts";

/** Lines and terminators after applying a plan, with what changed. */
export interface AppliedPlan {
  bom: boolean;
  lines: string[];
  terminators: Terminator[];
  added: number;
  removed: number;
  regions: ChangedRegion[];
}

/**
 * The split-and-join way of applying a plan, kept as the reference that the
 * spliced application must match byte for byte (docs/patch-format.md#terminators):
 * untouched lines keep their own terminators; new lines end with the file's
 * first terminator (`\n` when it has none); the final-newline state is kept,
 * except that content written into an empty file, or ending in an empty line,
 * ends with a terminator.
 */
export function applyPlan(src: SplitContent, plan: PlannedEdit[]): AppliedPlan {
  const eol: Terminator = src.firstTerminator ?? "\n";
  const lines: string[] = [];
  const terminators: Terminator[] = [];
  const regions: ChangedRegion[] = [];
  let added = 0;
  let removed = 0;
  let next = 1;
  const copyUntil = (stop: number): void => {
    for (; next < stop; next++) {
      lines.push(src.lines[next - 1]);
      terminators.push(src.terminators[next - 1]);
    }
  };
  for (const edit of plan) {
    copyUntil(edit.at);
    const start = lines.length + 1;
    for (const line of edit.lines) {
      lines.push(line);
      terminators.push(eol);
    }
    added += edit.lines.length;
    removed += edit.deleteCount;
    next = Math.max(next, edit.at + edit.deleteCount);
    const region = { start, end: lines.length };
    const last = regions[regions.length - 1];
    if (last && region.start <= last.end + 1) {
      last.end = Math.max(last.end, region.end);
    } else regions.push(region);
  }
  copyUntil(src.lines.length + 1);

  const k = lines.length - 1;
  for (let i = 0; i < k; i++) {
    if (terminators[i] === "") terminators[i] = eol;
  }
  if (k >= 0) {
    const finalNewline = src.lines.length === 0 || src.finalNewline ||
      lines[k] === "";
    if (!finalNewline) terminators[k] = "";
    else if (terminators[k] === "") terminators[k] = eol;
  }
  // A line ending in a lone \r would merge with a "\n" terminator into "\r\n"
  // and lose its \r on the next read; "\r\n" after it keeps the line intact.
  for (let i = 0; i <= k; i++) {
    if (terminators[i] === "\n" && lines[i].endsWith("\r")) {
      terminators[i] = "\r\n";
    }
  }
  return { bom: src.bom, lines, terminators, added, removed, regions };
}

/** The reference result as content. */
export function referenceApply(content: string, plan: PlannedEdit[]): string {
  return joinLines(applyPlan(splitLines(content), plan));
}
