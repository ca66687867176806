/**
 * How this build of hashline takes the session's read record and the rebase
 * option on in-memory patches. `applyPatch(content, patch, options)` is used
 * when it honours the options; otherwise `editContent(content, ops, options)`
 * (which has always taken the record). Small probes decide, so the benchmark
 * reports what the code in this tree does.
 *
 * @module
 */
import {
  applyPatch,
  editContent,
  lineHash,
  lineHash32,
  parsePatch,
} from "../../mod.ts";
import type { ReadMemory } from "../../src/patch/mod.ts";
import { memoryFromHashes } from "../../src/patch/memory.ts";

/** Options of an in-memory hashline patch. */
export interface HashlineOptions {
  /** Full 32-bit hashes the session saw. */
  memory?: ReadMemory;
  /** Apply ops whose lines only moved where they now stand. */
  rebase?: boolean;
}

/** An in-memory patch function, and what this build honours. */
export interface HashlineApi {
  /** Applies patch text to content (throws a refusal). */
  apply(content: string, patch: string, options: HashlineOptions): string;
  /** Which call is used. */
  via: "applyPatch" | "editContent";
  /** Whether `rebase: true` applies moved lines. */
  rebase: boolean;
}

type ApplyWithOptions = (
  content: string,
  patch: string,
  options?: HashlineOptions,
) => string;

const viaApplyPatch: ApplyWithOptions =
  applyPatch as unknown as ApplyWithOptions;
const viaEditContent: ApplyWithOptions = (content, patch, options) => {
  const parsed = parsePatch(patch);
  const ops = parsed.files.length === 0 ? [] : parsed.files[0].ops;
  return editContent(content, ops, options as { memory?: ReadMemory }).content;
};

function refuses(fn: () => unknown): boolean {
  try {
    fn();
    return false;
  } catch {
    return true;
  }
}

/**
 * Memory of a read: the full hash of every line of `content` (LF lines).
 *
 * @param lines The lines as read.
 * @returns The read record.
 */
export function memoryOf(lines: readonly string[]): ReadMemory {
  return memoryFromHashes(lines.map((l) => lineHash32(l)));
}

/**
 * Probes this build and returns the in-memory patch call to use.
 *
 * @returns The call and what it honours.
 */
export function hashlineApi(): HashlineApi {
  const read = ["alpha", "beta", "gamma"];
  const memory = memoryFromHashes([lineHash32("alpha") ^ 1, 0, 0]);
  const stale = `= 1:${lineHash("alpha")}\n~ALPHA\n`;
  const recordTaken = (f: ApplyWithOptions): boolean =>
    refuses(() => f("alpha\nbeta\ngamma\n", stale, { memory }));
  const apply = recordTaken(viaApplyPatch) ? viaApplyPatch : viaEditContent;
  const moved = `= 2:${lineHash("beta")}\n~BETA\n`;
  let rebase = false;
  try {
    rebase = apply("new\nalpha\nbeta\ngamma\n", moved, {
      memory: memoryOf(read),
      rebase: true,
    }) === "new\nalpha\nBETA\ngamma\n";
  } catch {
    rebase = false;
  }
  return {
    apply,
    via: apply === viaApplyPatch ? "applyPatch" : "editContent",
    rebase,
  };
}
