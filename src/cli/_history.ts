/**
 * The history commands: `log [--session S] [--path P] [--limit N]`,
 * `show ID` and `undo ID [--dry-run]`.
 *
 * @module
 */
import type { EntryFile, HistoryEntry } from "../history/mod.ts";
import { openWorkspace } from "../workspace/mod.ts";
import { type CliContext, EXIT_OK, reportError } from "./_context.ts";
import { intFlag, stringFlag } from "./_flags.ts";
import { safeJson, visible, visibleLines } from "../_internal/visible.ts";

function fileTag(f: EntryFile): string {
  if (f.created) return "(created) ";
  if (f.deleted) return "(deleted) ";
  if (f.renamedFrom !== undefined) return `(renamed from ${f.renamedFrom}) `;
  return "";
}

function filesText(files: readonly EntryFile[]): string {
  return files.map((f) => `${f.path} ${fileTag(f)}+${f.added} -${f.removed}`)
    .join(", ");
}

/**
 * One entry as a `log` line: id, time, session, door, files; control and
 * bidirectional formatting characters shown as escapes.
 *
 * @param e The entry.
 * @returns e.g. `h_3  2026-01-02 10:11:12  default  cli  a.ts +1 -1`.
 */
export function logLine(e: HistoryEntry): string {
  const time = e.time.replace("T", " ").replace(/\.\d+Z$/, "Z");
  return visible(
    [
      e.id,
      time,
      e.session,
      e.door,
      filesText(e.files) + (e.undoOf ? ` (undo of ${e.undoOf})` : ""),
    ].join("  "),
  );
}

/**
 * Runs `log`, `show` or `undo`.
 *
 * @param ctx The command's context.
 * @returns 0 done, 1 refused (moved on, not found), 2 bad usage.
 */
export async function run(ctx: CliContext): Promise<number> {
  try {
    const log = ctx.spec.name === "log";
    const ws = openWorkspace(ctx.root, {
      // For log, --session is a filter (a label included), not a name to take.
      session: log ? undefined : ctx.session,
      stateDir: ctx.stateDir,
      deny: ctx.deny,
      door: "cli",
    });
    if (log) {
      const path = stringFlag(ctx, "path");
      const entries = await ws.history({
        session: typeof ctx.values.session === "string"
          ? ctx.values.session
          : undefined,
        path: path === undefined ? undefined : ctx.path(path),
        limit: intFlag(ctx, "limit"),
      });
      const warnings = entries.warnings;
      if (ctx.json) {
        await ctx.out(
          safeJson({
            ok: true,
            entries,
            ...(warnings ? { warnings } : {}),
          }),
        );
      } else if (entries.length === 0) await ctx.err("(no entries)");
      else await ctx.out(entries.map(logLine).join("\n"));
      if (warnings && !ctx.json) {
        await ctx.err(warnings.map(visible).join("\n"));
      }
      return EXIT_OK;
    }
    const [id] = ctx.args;
    if (ctx.spec.name === "show") {
      const entry = await ws.entry(id);
      if (ctx.json) await ctx.out(safeJson({ ok: true, entry }));
      else {
        await ctx.out(
          [
            logLine(entry),
            visible(entry.summary),
            ...entry.files.map((f) => visibleLines(f.diff)),
          ].filter((s) => s !== "").join("\n"),
        );
      }
      return EXIT_OK;
    }
    const result = await ws.undo(id, {
      dryRun: ctx.values["dry-run"] === true,
    });
    if (ctx.json) await ctx.out(safeJson({ ok: true, ...result }));
    else await ctx.out(visibleLines(result.summary));
    return EXIT_OK;
  } catch (error) {
    // A refusal quotes lines as they stand (MOVED_ON): printed as the
    // entries are, so a line an agent wrote cannot drive the terminal.
    return await reportError(
      (text) => ctx.out(safeJson(JSON.parse(text))),
      (text) => ctx.err(visibleLines(text)),
      ctx.json,
      error,
    );
  }
}
