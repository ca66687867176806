/**
 * The text a model reads back from a tool: read footers that say where the
 * next window starts, plain numbered lines for the str_replace format, and
 * revision summaries.
 *
 * @module
 */

/** Hashline view → `     N\tcontent` lines, as str_replace tools show files. */
export function plainLines(text: string): string {
  if (text === "") return "";
  return text.split("\n").map((line) => {
    const m = /^(\d+):[0-9a-f]{2}\|/.exec(line);
    return m ? `${m[1].padStart(6)}\t${line.slice(m[0].length)}` : line;
  }).join("\n");
}

/** Where a window stands in the whole, and the call that continues it. */
export function readFooter(
  view: {
    totalLines: number;
    startLine: number;
    endLine: number;
    nextOffset: number | null;
  },
  tool: string,
  what = "file",
): string {
  if (view.totalLines === 0) return `(The ${what} is empty: 0 lines.)`;
  if (view.nextOffset === null) return "";
  return `\n\n(Lines ${view.startLine}–${view.endLine} of ${view.totalLines}. Call ${tool} with offset ${view.nextOffset} for more.)`;
}

/** `New revision p_… (sha256:…) from sha256:…` and the diff. */
export function revisionSummary(
  r: {
    ref: string;
    handle: string;
    parentRef: string;
    diff: string;
    diffTruncated: boolean;
  },
): string {
  const head = `New revision ${r.handle} (${r.ref}) from ${r.parentRef}.`;
  if (!r.diff) return head;
  return `${head}\n\n${r.diff}${r.diffTruncated ? "\n(diff truncated)" : ""}`;
}

/** A patch summary, with the ops rebase moved and any warnings after it. */
export function patchText(
  outcome: {
    dryRun: boolean;
    summary: string;
    rebased: string[];
    warnings: string[];
  },
): string {
  let text = outcome.dryRun && !/dry run/i.test(outcome.summary)
    ? `Dry run — nothing written.\n${outcome.summary}`
    : outcome.summary;
  if (outcome.rebased.length > 0 && !/rebased/i.test(text)) {
    text += `\n\nRebased (lines had moved): ${outcome.rebased.join("; ")}.`;
  }
  if (
    outcome.warnings.length > 0 &&
    !outcome.summary.includes(outcome.warnings[0])
  ) {
    text += `\n\nWarning: ${outcome.warnings.join(" ")}`;
  }
  return text;
}
