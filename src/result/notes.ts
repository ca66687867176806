/**
 * Warnings an answer carries when something beside the operation went
 * wrong (a read record that could not be saved), said as typed errors say
 * them, never with a raw system message or a descriptor path.
 *
 * @module
 */
import { mapFsError } from "../_internal/errno.ts";
import type { SyntaxCheck } from "../check/mod.ts";
import type { FileEdit, PatchResult } from "./types.ts";
import { pushAll } from "../_internal/arrays.ts";

/** Most UTF-8 bytes of anchors and diff one patch result carries (shared by its files). */
export const MAX_RESULT_BYTES = 64 * 1024;

/** The share of {@link MAX_RESULT_BYTES} each of `files` files gets (never under 4 KiB). */
export function resultShare(files: number): number {
  return Math.max(4096, Math.floor(MAX_RESULT_BYTES / Math.max(1, files)));
}

/** The head line of one file's patch result. */
export function editHead(
  f: { path: string; added: number; removed: number; created: boolean },
): string {
  return f.created
    ? `Created ${f.path} (+${f.added})`
    : f.added === 0 && f.removed === 0
    ? `Unchanged ${f.path}: the patch leaves it as it was (+0 -0)`
    : `Edited ${f.path} (+${f.added} -${f.removed})`;
}

/** The warning for a read record that could not be saved after `done`. */
export function recordWarning(done: string, error: unknown): string {
  const mapped = mapFsError(error, "the record could not be saved");
  const why = mapped instanceof Error ? mapped.message : String(mapped);
  return `${done}, but this session's read record could not be saved (${why}): read the file again before the next edit.`;
}

/** `answer` with `warnings` added when there are any. */
export function withWarnings<T extends object>(
  answer: T,
  warnings: string[],
): T & { warnings?: string[] } {
  return warnings.length > 0 ? { ...answer, warnings } : answer;
}

/**
 * The note for a file with other hard links: a commit writes a new file and
 * renames it over this path, so only this name gets the new content.
 */
export function linkNote(
  display: string,
  stat: { nlink?: number } | undefined,
): string | null {
  const links = stat?.nlink ?? 1;
  if (links <= 1) return null;
  return `${display} had ${links} links; the others keep the old content (only this path was replaced).`;
}

/**
 * A patch's result from its per-file parts: the notes on blocks and
 * rebased ops and the warnings after them, the dry-run line first, and the
 * same facts as data.
 */
export function patchAnswer(a: {
  dryRun: boolean;
  files: FileEdit[];
  parts: string[];
  rebased: string[];
  blocks: string[];
  warnings: string[];
  checks: SyntaxCheck[];
  entry?: string;
}): PatchResult {
  const parts = [...a.parts];
  if (a.blocks.length > 0) parts.push(`Blocks: ${a.blocks.join("; ")}`);
  if (a.rebased.length > 0) parts.push(`Rebased: ${a.rebased.join("; ")}`);
  pushAll(parts, a.warnings.map((w) => `Warning: ${w}`));
  if (a.dryRun) parts.unshift("Dry run: nothing was written.");
  return {
    dryRun: a.dryRun,
    files: a.files,
    summary: parts.join("\n\n"),
    rebased: a.rebased,
    ...(a.blocks.length > 0 ? { blocks: a.blocks } : {}),
    warnings: a.warnings,
    checks: a.checks,
    ...(a.entry ? { entry: a.entry } : {}),
  };
}
