/**
 * A patch in another dialect (`apply_patch`, a unified diff) through the
 * workspace (docs/patch-format.md#other-dialects): each file it edits is
 * resolved, its hunks are located in what this session was shown of it
 * (`sessionLines`, the one place the compiler asks the read record), and
 * the compiled hashline patch then walks the one write path.
 *
 * @module
 */
import { checkSession } from "../_internal/session.ts";
import { splitLines } from "../anchor/split.ts";
import { NotFoundError } from "../errors.ts";
import {
  compileDialect,
  type DialectTarget,
  type SessionView,
} from "../patch/dialects/compile.ts";
import { DIALECT_LABELS, type DialectPatch } from "../patch/dialects/types.ts";
import { lookupFromLines } from "../patch/lookup.ts";
import { refusal } from "../patch/problems.ts";
import type { Patch } from "../patch/types.ts";
import type { Target } from "../fs/confine.ts";
import type { Context } from "./_context.ts";
import { loadWhole } from "../fs/load.ts";
import { recordRefusal } from "../records/update.ts";
import { resolveTarget } from "../fs/resolve.ts";
import type { PatchOptions, PatchResult } from "./types.ts";

/**
 * The session's lines of one file, for the compiler: what it was shown, as
 * line number → full hash. Every question the compiler asks of a read
 * record goes through here.
 */
async function sessionLines(
  ctx: Context,
  session: string,
  target: Target,
): Promise<SessionView | undefined> {
  return (await ctx.records.get(session, target.real))?.clone();
}

/** The file as it is now, for the fresh lines of a refusal (not for a file that streams). */
async function nowOf(
  ctx: Context,
  target: Target,
): Promise<DialectTarget["now"]> {
  if (ctx.streams(target)) return undefined;
  const { text } = await loadWhole(target);
  return lookupFromLines(splitLines(text).lines);
}

/**
 * Compiles a dialect patch against this session's views and runs the
 * hashline patch it becomes; the result's summary names the dialect.
 *
 * @throws {PatchRefusedError} A hunk not located at exactly one place
 *   (`NO_MATCH`, `MANY_MATCHES`), over lines not read (`NOT_READ`), or any
 *   refusal of the compiled patch.
 */
export async function patchDialect(
  ctx: Context,
  dialect: DialectPatch,
  options: PatchOptions,
  run: (patch: Patch, options: PatchOptions) => Promise<PatchResult>,
): Promise<PatchResult> {
  const session = checkSession(options.session ?? ctx.session);
  const targets = new Map<string, DialectTarget & { target: Target }>();
  for (const file of dialect.files) {
    if (file.kind === "add" || (file.kind === "delete" && !file.hunks.length)) {
      continue;
    }
    if (targets.has(file.path)) continue;
    const target = await resolveTarget(ctx, file.path, "write");
    if (!target.exists) {
      throw new NotFoundError(
        `Cannot patch "${target.display}": no such file in the workspace. To create it, send "*** Add File:" (apply_patch) or a diff from /dev/null.`,
      );
    }
    targets.set(file.path, {
      target,
      display: target.display,
      view: await sessionLines(ctx, session, target),
    });
  }
  let compiled = compileDialect(dialect, (path) => targets.get(path)!);
  if (compiled.problems.length > 0) {
    // Refusals show the closest lines of the files as they are now.
    for (const t of targets.values()) t.now = await nowOf(ctx, t.target);
    compiled = compileDialect(dialect, (path) => targets.get(path)!);
    if (options.dryRun !== true) {
      const shown = [...targets.values()].map((t) => t.target);
      await recordRefusal(ctx, session, shown, compiled.problems);
    }
    throw refusal(compiled.problems);
  }
  const result = await run(compiled.patch, options);
  return named(result, DIALECT_LABELS[dialect.name], dialect.name);
}

/** The result with its summary line naming the dialect: `Edited a.ts (+1 -1) (apply_patch)`. */
function named(
  result: PatchResult,
  label: string,
  name: DialectPatch["name"],
): PatchResult {
  const lines = result.summary.split("\n");
  const at = lines[0]?.startsWith("Dry run") ? 2 : 0;
  if (lines[at] !== undefined) lines[at] = `${lines[at]} (${label})`;
  return { ...result, summary: lines.join("\n"), dialect: name };
}
