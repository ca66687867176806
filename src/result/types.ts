/**
 * What a patch answers (docs/patch-format.md "Results"): one entry per
 * file edited, and the result that gathers them; and what a whole-file
 * write answers.
 *
 * @module
 */
import type { SyntaxCheck } from "../check/mod.ts";
import type { DialectName } from "../patch/dialects/types.ts";

/** What a patch did to one file. */
export interface FileEdit {
  /** Root-relative path with `/` separators. */
  path: string;
  /** Lines written (new or replacing). */
  added: number;
  /** Lines removed (deleted or replaced). */
  removed: number;
  /** The patch created the file. */
  created: boolean;
  /** Fresh anchors of each changed region, ±2 lines (`LINE:HH|content`). */
  anchors: string;
  /** Unified diff (`""` when nothing changed). */
  diff: string;
}

/** The result of a patch. */
export interface PatchResult {
  /** Nothing was written. */
  dryRun: boolean;
  /** One entry per file, in patch order. */
  files: FileEdit[];
  /** What a model reads: `Edited PATH (+a -r)`, the fresh anchors and the diff, per file. */
  summary: string;
  /** Ops applied where their lines moved to (`op 2: lines 40–42 → 43–45`), with rebase on. */
  rebased: string[];
  /** One note per block anchor (`LINE:HH*`) resolved: `src/a.ts op 1: block 12–40`. */
  blocks?: string[];
  /** Things that did not stop the commit but that the caller should know (a read record not saved). */
  warnings: string[];
  /** Syntax checks of the edited files (none with `check: "off"` or for files without a grammar). */
  checks: SyntaxCheck[];
  /** The history entry of this change (absent on a dry run, with history off, or when nothing changed). */
  entry?: string;
  /** The dialect the patch was written in, when not hashline's own (docs/patch-format.md#other-dialects). */
  dialect?: DialectName;
}

/** The result of writing a whole file. */
export interface WriteResult {
  /** Root-relative path with `/` separators. */
  path: string;
  /** The file did not exist before. */
  created: boolean;
  /** Lines added, as the diff counts them. */
  added: number;
  /** Lines removed, as the diff counts them. */
  removed: number;
  /** Lines in the new content. */
  totalLines: number;
  /** Unified diff against the old content. */
  diff: string;
  /** `Created PATH (N lines)` or `Wrote PATH (+a -r)`, then the diff. */
  summary: string;
  /** Things that did not stop the write but that the caller should know. */
  warnings: string[];
  /** Syntax check of the new content (none with `check: "off"` or without a grammar). */
  checks: SyntaxCheck[];
  /** The history entry of this change (absent with history off). */
  entry?: string;
}
