/**
 * Finding files (docs/workspace.md "Finding files"): a bounded listing of
 * the files under the root, and a search whose lines come back anchored in
 * the session's read form and count as read, recorded by the same step an
 * outline read uses (`recordRuns` in `src/records/update.ts`), so a patch can name a
 * line a search showed without another read.
 *
 * @module
 */
import { checkSession } from "../_internal/session.ts";
import { splitLines } from "../anchor/split.ts";
import { BinaryContentError } from "../errors.ts";
import { showLine, type ShownRun } from "./_shown.ts";
import { contentStamp } from "../records/stamp.ts";
import type { ReadScope } from "./scope.ts";
import { loadWhole } from "../fs/load.ts";
import { start } from "../history/settle.ts";
import { recordRuns, type ShownRuns } from "../records/update.ts";
import { resolveTarget } from "../fs/resolve.ts";
import { withWarnings } from "../result/notes.ts";
import { globMatcher, walkFiles } from "../fs/walk.ts";
import type {
  FileList,
  ListOptions,
  SearchFile,
  SearchOptions,
  SearchResult,
} from "./types.ts";

/** Most paths a listing shows. */
export const MAX_LIST_PATHS = 1000;
/** Most matching lines a search shows. */
export const MAX_SEARCH_LINES = 200;
/** Largest file a search reads: past it a file is read in windows instead. */
export const MAX_SEARCH_FILE_BYTES = 1024 * 1024;

function checkObject(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new TypeError(`Cannot ${what}: the options must be an object.`);
  }
  return value as Record<string, unknown>;
}

function matcherOf(glob: unknown): (path: string) => boolean {
  return glob === undefined ? () => true : globMatcher(glob);
}

/** `n thing` or `n things`. */
function count(n: number, thing: string): string {
  return `${n} ${thing}${n === 1 ? "" : "s"}`;
}

function note(cut: boolean): string {
  return cut
    ? "\n(The walk stopped after 200,000 entries: narrow the glob to a folder.)"
    : "";
}

/** Lists the files under the root. */
export async function listFiles(
  ctx: ReadScope,
  options: ListOptions = {},
): Promise<FileList> {
  await start(ctx);
  const opts = checkObject(options, "list files");
  const walked = await walkFiles(ctx, matcherOf(opts.glob));
  const paths = walked.files.slice(0, MAX_LIST_PATHS).map((f) => f.path);
  const more = walked.files.length - paths.length;
  let text = paths.length === 0
    ? `No files${opts.glob === undefined ? "" : ` match "${opts.glob}"`}.`
    : paths.join("\n");
  if (more > 0) {
    text += `\n(${
      count(more, "more file")
    } not shown: narrow the glob, e.g. "src/**/*.ts".)`;
  }
  return { paths, total: walked.files.length, text: text + note(walked.cut) };
}

function patternOf(pattern: unknown): RegExp {
  if (typeof pattern !== "string" || pattern === "") {
    throw new TypeError(
      `Cannot search: pattern must be a non-empty regular expression, got ${
        JSON.stringify(pattern)
      }.`,
    );
  }
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw new TypeError(
      `Cannot search: the pattern ${
        JSON.stringify(pattern)
      } is not a valid regular expression (${
        (error as Error).message
      }). Escape characters such as ( [ { . * + ? with \\ to match them as text.`,
    );
  }
}

/**
 * Searches file contents line by line; the lines shown are recorded as
 * read for the session, in the form it last read each file.
 */
export async function searchFiles(
  ctx: ReadScope,
  options: SearchOptions,
): Promise<SearchResult> {
  await start(ctx);
  const opts = checkObject(options, "search");
  const re = patternOf(opts.pattern);
  const session = checkSession(opts.session ?? ctx.session);
  const walked = await walkFiles(ctx, matcherOf(opts.glob));
  const files: SearchFile[] = [];
  const blocks: string[] = [];
  const warnings: string[] = [];
  let shown = 0;
  let more = 0;
  let moreFiles = 0;
  let binary = 0;
  let tooLarge = 0;
  for (const file of walked.files) {
    if (file.size > MAX_SEARCH_FILE_BYTES) {
      tooLarge++;
      continue;
    }
    let target;
    let loaded;
    try {
      target = await resolveTarget(ctx, file.path, "read");
      if (!target.exists) continue;
      loaded = await loadWhole(target);
    } catch (error) {
      if (error instanceof BinaryContentError) binary++;
      // A file gone, replaced or refused since the walk is not a match.
      continue;
    }
    const { lines } = splitLines(loaded.text);
    const hits: number[] = [];
    for (let n = 1; n <= lines.length; n++) {
      if (re.test(lines[n - 1])) hits.push(n);
    }
    if (hits.length === 0) continue;
    const room = MAX_SEARCH_LINES - shown;
    const show = hits.slice(0, Math.max(0, room));
    more += hits.length - show.length;
    if (show.length === 0) {
      moreFiles++;
      continue;
    }
    shown += show.length;
    const prior = await ctx.records.get(session, target.real);
    const form = prior?.form === "lean" ? "lean" : "hash";
    const runs: ShownRun[] = [];
    const out: string[] = [file.path];
    for (const n of show) {
      out.push(showLine(lines, n, ctx.maxLineChars, form, runs));
    }
    const stamp = await contentStamp(loaded.bytes);
    const seen: ShownRuns = { runs, totalLines: lines.length, form, stamp };
    await recordRuns(ctx, session, target.real, seen, warnings);
    files.push({ path: file.path, lines: show });
    blocks.push(out.join("\n"));
  }
  const notes: string[] = [];
  if (more > 0) {
    notes.push(
      `${count(more, "more matching line")}${
        moreFiles > 0 ? ` (in ${count(moreFiles, "more file")})` : ""
      } not shown: narrow the pattern or the glob.`,
    );
  }
  if (binary > 0) notes.push(`${count(binary, "binary file")} skipped.`);
  if (tooLarge > 0) {
    notes.push(
      `${count(tooLarge, "file")} over 1 MiB skipped: read them in windows.`,
    );
  }
  let text = blocks.length === 0
    ? `No lines match ${JSON.stringify(opts.pattern)}.`
    : blocks.join("\n\n");
  if (notes.length > 0) text += `\n\n(${notes.join(" ")})`;
  return withWarnings({
    files,
    shown,
    more,
    binary,
    tooLarge,
    text: text + note(walked.cut),
  }, warnings);
}
