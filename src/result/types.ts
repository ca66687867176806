/**
 * What a patch answers (docs/patch-format.md "Results"): one
 * entry per file edited, and the result that gathers them.
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
