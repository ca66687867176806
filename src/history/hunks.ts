/**
 * Changed regions of a file as exact text (pure functions): what an entry
 * keeps costs the size of the edit, never of the file.
 *
 * @module
 */
import { lineHash32 } from "../hash/fnv.ts";
import type { PlannedEdit } from "../patch/types.ts";
import type { Hunk } from "./types.ts";

const BOM = "\uFEFF";

/**
 * Cuts text into lines that keep their terminators (`\n` or `\r\n`); a
 * leading BOM stays on the first one, so joining them gives the text back.
 *
 * @param text The whole text.
 * @returns Its lines, terminators included.
 */
export function segments(text: string): string[] {
  const out: string[] = [];
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    if (nl < 0) {
      out.push(text.slice(pos));
      break;
    }
    out.push(text.slice(pos, nl + 1));
    pos = nl + 1;
  }
  if (out.length === 1 && out[0] === BOM) return [BOM];
  return out;
}

/** A line without its terminator (and without a BOM on line 1). */
export function bare(segment: string, first: boolean): string {
  let s = segment;
  if (first && s.startsWith(BOM)) s = s.slice(1);
  if (s.endsWith("\r\n")) return s.slice(0, -2);
  if (s.endsWith("\n")) return s.slice(0, -1);
  return s;
}

function hunk(
  oldSegs: string[],
  newSegs: string[],
  o: number,
  oldLen: number,
  n: number,
  newLen: number,
): Hunk {
  const written = newSegs.slice(n, n + newLen);
  return {
    at: o + 1,
    newAt: n + 1,
    old: oldSegs.slice(o, o + oldLen).join(""),
    new: written.join(""),
    hashes: written.map((s, k) => lineHash32(bare(s, n + k === 0))),
    before: n > 0 ? newSegs[n - 1] : null,
    after: n + newLen < newSegs.length ? newSegs[n + newLen] : null,
  };
}

function whole(oldSegs: string[], newSegs: string[]): Hunk[] {
  let head = 0;
  while (
    head < oldSegs.length && head < newSegs.length &&
    oldSegs[head] === newSegs[head]
  ) head++;
  let tail = 0;
  while (
    tail < oldSegs.length - head && tail < newSegs.length - head &&
    oldSegs[oldSegs.length - 1 - tail] === newSegs[newSegs.length - 1 - tail]
  ) tail++;
  const oldLen = oldSegs.length - head - tail;
  const newLen = newSegs.length - head - tail;
  if (oldLen === 0 && newLen === 0) return [];
  return [hunk(oldSegs, newSegs, head, oldLen, head, newLen)];
}

/**
 * The changed regions between two versions of a file: one per planned
 * edit when the plan accounts for every byte of the change (it may not,
 * when the final newline moved), else the one region between the common
 * first and last lines.
 *
 * @param oldText The file before.
 * @param newText The file after.
 * @param plan The edits that turned one into the other, if known.
 * @returns The regions, in file order.
 */
export function hunksOf(
  oldText: string,
  newText: string,
  plan?: readonly PlannedEdit[] | null,
): Hunk[] {
  const oldSegs = segments(oldText);
  const newSegs = segments(newText);
  if (plan && plan.length > 0) {
    const out: Hunk[] = [];
    let shift = 0;
    let ok = true;
    let lastEnd = 0;
    for (const e of [...plan].sort((a, b) => a.at - b.at)) {
      const o = e.at - 1;
      if (o < lastEnd) {
        ok = false;
        break;
      }
      out.push(
        hunk(oldSegs, newSegs, o, e.deleteCount, o + shift, e.lines.length),
      );
      shift += e.lines.length - e.deleteCount;
      lastEnd = o + e.deleteCount;
    }
    if (ok && applyHunks(oldSegs, out) === newText) {
      return out.filter((h) => h.old !== "" || h.new !== "");
    }
  }
  return whole(oldSegs, newSegs);
}

/** Puts each hunk's new text in place of its old text, by old line numbers. */
function applyHunks(oldSegs: string[], hunks: Hunk[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const h of hunks) {
    const n = segments(h.old).length;
    const o = h.at - 1;
    if (o < at || o + n > oldSegs.length) return "\0";
    // Line by line, never spread: a file may hold more lines than an
    // argument list can.
    for (let k = at; k < o; k++) parts.push(oldSegs[k]);
    parts.push(h.new);
    at = o + n;
  }
  for (let k = at; k < oldSegs.length; k++) parts.push(oldSegs[k]);
  return parts.join("");
}

/** Lines a hunk's text holds. */
export function lineCount(text: string): number {
  return text === "" ? 0 : segments(text).length;
}

/**
 * A unified diff of a file's hunks.
 *
 * @param path Root-relative path.
 * @param hunks The changed regions.
 * @param kind `created`/`deleted` name `/dev/null` on one side.
 * @returns The diff (`""` when there are no hunks).
 */
export function renderDiff(
  path: string,
  hunks: readonly Hunk[],
  kind?: "created" | "deleted",
): string {
  if (hunks.length === 0) return "";
  const out = [
    kind === "created" ? "--- /dev/null" : `--- a/${path}`,
    kind === "deleted" ? "+++ /dev/null" : `+++ b/${path}`,
  ];
  for (const h of hunks) {
    const olds = h.old === "" ? [] : segments(h.old);
    const news = h.new === "" ? [] : segments(h.new);
    const oldStart = olds.length === 0 ? h.at - 1 : h.at;
    const newStart = news.length === 0 ? h.newAt - 1 : h.newAt;
    out.push(
      `@@ -${oldStart},${olds.length} +${newStart},${news.length} @@`,
    );
    for (const [i, s] of olds.entries()) {
      out.push(`-${bare(s, h.at + i === 1)}`);
    }
    for (const [i, s] of news.entries()) {
      out.push(`+${bare(s, h.newAt + i === 1)}`);
    }
  }
  return out.join("\n");
}
