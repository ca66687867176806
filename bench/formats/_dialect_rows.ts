/**
 * The dialect rows of the drift table: the same fix written as Codex's
 * `apply_patch` and as a unified diff, sent through hashline (each hunk
 * located in the session's read record, then judged as a hashline patch),
 * rebase off and on; and the checks those rows are held to.
 *
 * @module
 */
import { toLines } from "./_lines.ts";
import { type HashlineApi, memoryOf } from "./_hashline_api.ts";
import type { Applied } from "./checker.ts";
import type { FormatName } from "./fixes.ts";
import type { Applier, TrialInput } from "./appliers.ts";

/** Ids of the dialect rows, in table order. */
export const DIALECT_ROWS = [
  "hashline_apply_patch",
  "hashline_apply_patch_rebase",
  "hashline_unified_diff",
  "hashline_unified_diff_rebase",
] as const;

function row(
  api: HashlineApi,
  format: "apply_patch" | "unified_diff",
  rebase: boolean,
): Applier {
  const name = format === "apply_patch" ? "apply_patch" : "unified diff";
  return {
    id: `hashline_${format}${rebase ? "_rebase" : ""}`,
    label: `${name} through hashline + 32-bit record${
      rebase ? ", rebase on" : ""
    }`,
    format: format as FormatName,
    semantics:
      `\`${api.via}\` on the content now with the full hashes of the read: each hunk located in the read at exactly one place, compiled to anchored ops${
        rebase ? ", `rebase: true`" : ""
      }.`,
    apply({ task, fix, disk }: TrialInput): Promise<Applied> {
      const patch = format === "apply_patch" ? fix.codexPatch : fix.unifiedDiff;
      try {
        const content = api.apply(disk, patch, {
          memory: memoryOf(toLines(task.buggy)),
          ...(rebase ? { rebase: true } : {}),
        });
        return Promise.resolve({ written: true, content });
      } catch (e) {
        return Promise.resolve({
          written: false,
          reason: e instanceof Error ? e.message.split("\n")[0] : String(e),
        });
      }
    },
    close: () => Promise.resolve(),
  };
}

/**
 * The four dialect rows.
 *
 * @param api This build's in-memory hashline call.
 * @returns apply_patch and unified diff, rebase off and on.
 */
export function dialectAppliers(api: HashlineApi): Applier[] {
  return [
    row(api, "apply_patch", false),
    row(api, "apply_patch", true),
    row(api, "unified_diff", false),
    row(api, "unified_diff", true),
  ];
}

/** Correct, refused and wrong trials of one row on one drift kind. */
export type Cell = { CORRECT: number; REFUSED: number; WRONG: number };

/**
 * The checks the dialect rows are held to: 0 silent wrong rebase off and
 * on; with rebase on, on every drift kind at least the correct count of the
 * hashline text form (rebase on) and of Codex's own algorithm; with no
 * drift, every trial correct.
 *
 * @param cell The tally of a row on a drift kind, or undefined when the row did not run.
 * @param kinds The drift kinds.
 * @returns One sentence per check.
 */
export function dialectVerdict(
  cell: (row: string, kind: string) => Cell | undefined,
  kinds: readonly string[],
): string[] {
  const lines: string[] = [];
  for (const id of DIALECT_ROWS) {
    if (!cell(id, "none")) continue;
    const wrong = kinds.filter((k) => cell(id, k)!.WRONG > 0);
    lines.push(
      `${id}: ${
        wrong.length === 0
          ? "yes"
          : `no (${wrong.map((k) => `${k} ${cell(id, k)!.WRONG}`).join(", ")})`
      } — 0 silent wrong on every drift kind.`,
    );
    const none = cell(id, "none")!;
    lines.push(
      `${id}: ${
        none.REFUSED + none.WRONG === 0 ? "yes" : "no"
      } — every trial correct with no drift (${none.CORRECT} correct, ${none.REFUSED} refused, ${none.WRONG} wrong).`,
    );
    if (!id.endsWith("_rebase")) continue;
    for (const other of ["hashline_record_rebase", "codex"]) {
      if (!cell(other, "none")) continue;
      const behind = kinds.filter((k) =>
        cell(id, k)!.CORRECT < cell(other, k)!.CORRECT
      );
      lines.push(
        `${id}: ${
          behind.length === 0
            ? "yes"
            : `no (fewer on ${
              behind.map((k) =>
                `${k} ${cell(id, k)!.CORRECT} < ${cell(other, k)!.CORRECT}`
              ).join(", ")
            })`
        } — at least ${other}'s correct count on every drift kind.`,
      );
    }
  }
  return lines;
}
