/**
 * Reads (docs/reads.md): a window of a file as `LINE:HH|content` lines —
 * loaded whole, or streamed past 1 MiB — recorded for the session; a whole
 * file as text; whether a path names a file.
 *
 * @module
 */
import { checkSession } from "../_internal/session.ts";
import { formatLine, readWindow } from "../anchor/format.ts";
import { splitLines } from "../anchor/split.ts";
import { NotFoundError } from "../errors.ts";
import { foldHash, lineHash32 } from "../hash/fnv.ts";
import type { Context } from "./_context.ts";
import { statTarget } from "../fs/io.ts";
import { loadWhole } from "./_load.ts";
import { start } from "./_locking.ts";
import { recordRead, recordWhole } from "./_record.ts";
import { contentStamp, identityStamp } from "../records/stamp.ts";
import { anchorForm, leanLines } from "../anchor/lean.ts";
import { resolveTarget } from "./_resolve.ts";
import { withWarnings } from "./_result_notes.ts";
import type {
  FileRead,
  PathInfo,
  ReadOptions,
  TextRead,
  WriteOptions,
} from "./types.ts";

// The streamed path (files past 1 MiB) and its scanners, the Wasm one
// included, load with the first such read: a specifier in a variable, which
// Deno does not follow ahead of time, so a small read never builds their
// module graph either.
type StreamRead = typeof import("../stream/read.ts");
const streamReadPath = "../stream/read.ts";
let streaming: Promise<StreamRead> | undefined;
const loadStreamRead = (): Promise<StreamRead> =>
  streaming ??= import(streamReadPath);

/** Reads a window of a file and records its lines for the session. */
export async function readFile(
  ctx: Context,
  path: string,
  window: ReadOptions = {},
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
  return withWarnings({ path: target.display, ...view }, warnings);
}

/** Reads a whole file as text and records every line for the session. */
export async function readText(
  ctx: Context,
  path: string,
  options: WriteOptions = {},
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
  ctx: Context,
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
