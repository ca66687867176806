/**
 * Reads (docs/reads.md): a window of a file as `LINE:HH|content` lines —
 * loaded whole, or streamed past 1 MiB — recorded for the session; a whole
 * file as text; whether a path names a file.
 *
 * @module
 */
import { checkSession } from "../_internal/session.ts";
import { lazy } from "../_internal/lazy.ts";
import { formatLine, readWindow } from "../anchor/format.ts";
import { splitLines } from "../anchor/split.ts";
import { NotFoundError, PatchRefusedError } from "../errors.ts";
import { foldHash, lineHash32 } from "../hash/fnv.ts";
import type { ReadScope } from "./scope.ts";
import { statTarget } from "../fs/io.ts";
import { loadWhole } from "../fs/load.ts";
import { start } from "../history/settle.ts";
import { recordRead, recordRuns, recordWhole } from "../records/shown.ts";
import type { Target } from "../fs/confine.ts";
import { contentStamp, identityStamp } from "../records/stamp.ts";
import { anchorForm, leanLines } from "../anchor/lean.ts";
import { resolveTarget } from "../fs/resolve.ts";
import { withWarnings } from "../result/notes.ts";
import { showLine, type ShownRun } from "./_shown.ts";
import type { FileRead, PathInfo, ReadOptions, TextRead } from "./types.ts";

// The streamed path (files past 1 MiB) and its scanners, the Wasm one
// included, load with the first such read.
const loadStreamRead = lazy<typeof import("../stream/read.ts")>(
  import.meta.url,
  "../stream/read.ts",
);
// Outlines, with the grammars they parse with, load with the first outline.
const loadOutline = lazy<typeof import("../block/outline.ts")>(
  import.meta.url,
  "../block/outline.ts",
);

/**
 * Reads a window of a file and records its lines for the session. A file
 * replaced between its resolution and its opening (another writer's
 * commit renamed a new version over it) is read again, as it now is.
 */
export async function readFile(
  ctx: ReadScope,
  path: string,
  window: ReadOptions = {},
): Promise<FileRead> {
  for (let attempt = 1;; attempt++) {
    try {
      return await readOnce(ctx, path, window);
    } catch (error) {
      if (
        attempt >= 3 || !(error instanceof PatchRefusedError) ||
        error.code !== "CHANGED"
      ) throw error;
    }
  }
}

async function readOnce(
  ctx: ReadScope,
  path: string,
  window: ReadOptions,
): Promise<FileRead> {
  await start(ctx);
  if (window === null || typeof window !== "object") {
    throw new TypeError(
      "Cannot read: the window must be an object such as { offset, limit }.",
    );
  }
  const session = checkSession(window.session ?? ctx.session);
  const form = anchorForm(window.anchors);
  const options = {
    offset: window.offset,
    limit: window.limit,
    maxLineChars: ctx.maxLineChars,
  };
  readWindow(Number.MAX_SAFE_INTEGER, options);
  const target = await resolveTarget(ctx, path, "read");
  if (!target.exists) {
    throw new NotFoundError(
      `Cannot read "${target.display}": no such file in the workspace.`,
    );
  }
  let note: string | undefined;
  if (window.outline === true) {
    const outline = await outlineRead(ctx, session, target, options, form);
    if ("text" in outline) return outline;
    note = outline.note;
  }
  let view: Omit<FileRead, "path">;
  let hashes: number[];
  let stamp: string | undefined;
  if (ctx.streamsRead(target)) {
    const { streamRead } = await loadStreamRead();
    ({ view, hashes } = await streamRead(
      target,
      options,
      ctx.engine,
      ctx.indexes,
    ));
    if (target.stat) stamp = identityStamp(target.stat);
  } else {
    const loaded = await loadWhole(target);
    stamp = await contentStamp(loaded.bytes);
    const { lines } = splitLines(loaded.text);
    const win = readWindow(lines.length, options);
    hashes = lines.slice(win.startLine - 1, win.endLine).map(lineHash32);
    view = {
      text: hashes.map((h, i) =>
        formatLine(
          win.startLine + i,
          lines[win.startLine - 1 + i],
          win.maxLineChars,
          foldHash(h),
        )
      ).join("\n"),
      totalLines: lines.length,
      startLine: win.startLine,
      endLine: win.endLine,
      nextOffset: win.nextOffset,
    };
  }
  if (form === "lean") view = { ...view, text: leanLines(view.text) };
  const warnings: string[] = [];
  await recordRead(
    ctx,
    session,
    target.real,
    view.startLine,
    hashes,
    view.totalLines,
    warnings,
    stamp,
    form,
  );
  const read = withWarnings({ path: target.display, ...view }, warnings);
  return window.outline === true ? { ...read, outline: false, note } : read;
}

/** Largest file an outline parses (the syntax check's limit). */
const OUTLINE_BYTES = 2 * 1024 * 1024;
/**
 * An outline window of a file, recorded for the session; or why the file
 * gets its plain read instead.
 */
async function outlineRead(
  ctx: ReadScope,
  session: string,
  target: Target,
  options: { offset?: number; limit?: number; maxLineChars?: number },
  form: "hash" | "lean",
): Promise<FileRead | { note: string }> {
  const size = statTarget(target)?.size ?? Infinity;
  if (size > OUTLINE_BYTES) {
    return {
      note:
        "no outline: the file is over the 2 MiB limit of syntax parsing, so it is read plainly",
    };
  }
  const { text, bytes } = await loadWhole(target);
  const source = await ctx.syntax.structure(target.display, text);
  if (source.kind === "none") {
    return {
      note: `no outline: ${source.reason}, so the file is read plainly`,
    };
  }
  const { outlineLines, outlineMarker } = await loadOutline();
  const { lines } = splitLines(text);
  const win = readWindow(lines.length, options);
  const shown = new Set(outlineLines(source.root, lines));
  const out: string[] = [];
  const runs: ShownRun[] = [];
  let hidden = 0;
  for (let n = win.startLine; n <= win.endLine; n++) {
    if (!shown.has(n)) {
      if (hidden === 0) hidden = n;
      continue;
    }
    if (hidden > 0) out.push(outlineMarker(hidden, n - 1));
    hidden = 0;
    out.push(showLine(lines, n, win.maxLineChars, form, runs));
  }
  if (hidden > 0) out.push(outlineMarker(hidden, win.endLine));
  const warnings: string[] = [];
  // Stamped as a plain read is, so an edit of the file unchanged since
  // needs no alignment (hidden lines may repeat a shown one).
  const stamp = await contentStamp(bytes);
  await recordRuns(ctx, session, target.real, {
    runs,
    totalLines: lines.length,
    form,
    stamp,
  }, warnings);
  return withWarnings({
    path: target.display,
    text: out.join("\n"),
    totalLines: lines.length,
    startLine: win.startLine,
    endLine: win.endLine,
    nextOffset: win.nextOffset,
    outline: true,
  }, warnings);
}

/** Reads a whole file as text and records every line for the session. */
export async function readText(
  ctx: ReadScope,
  path: string,
  options: { session?: string } = {},
): Promise<TextRead> {
  await start(ctx);
  const session = checkSession(options.session ?? ctx.session);
  const target = await resolveTarget(ctx, path, "read");
  if (!target.exists) {
    throw new NotFoundError(
      `Cannot read "${target.display}": no such file in the workspace.`,
    );
  }
  const { text, bytes } = await loadWhole(target);
  const { lines } = splitLines(text);
  const warnings: string[] = [];
  await recordWhole(
    ctx,
    session,
    target.real,
    lines,
    warnings,
    "The file was read",
    await contentStamp(bytes),
  );
  return withWarnings(
    { path: target.display, text, totalLines: lines.length },
    warnings,
  );
}

/** Checks a path against the root and says whether a regular file is there. */
export async function stat(
  ctx: ReadScope,
  path: string,
): Promise<PathInfo> {
  await start(ctx);
  const target = await resolveTarget(ctx, path, "read");
  const id = target.exists ? statTarget(target) : null;
  return {
    path: target.display,
    exists: id !== null,
    size: id?.size ?? null,
  };
}
