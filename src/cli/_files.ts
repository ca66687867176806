/**
 * The workspace commands: `read PATH`, `patch [FILE|-]`,
 * `write PATH FILE|-`, `ls [GLOB]` and `grep PATTERN [GLOB]`. PATH and FILE,
 * and the paths inside a patch, are taken from the caller's folder when it
 * lies inside the root, else from the root (docs/cli.md); `read` prints the
 * path on its first line in that form.
 *
 * @module
 */
import { isAbsolute, join, relative, sep } from "node:path";
import { realpathSync } from "../_runtime/fs.ts";
import { OutsideRootError } from "../errors.ts";
import type { FileRead, PatchOptions, Workspace } from "../workspace/mod.ts";
import {
  type CliContext,
  EXIT_OK,
  fail,
  pathBase,
  printResult,
} from "./_context.ts";
import { commandWorkspace } from "./_workspace.ts";
import { intFlag } from "./_flags.ts";
import { lazy } from "../_internal/lazy.ts";
import type { Patch } from "../patch/types.ts";

/**
 * The footer under a read: which lines were shown and where to go next.
 *
 * @param view The read.
 * @returns e.g. `(lines 1–200 of 5000; next: --offset 201)`.
 */
export function readFooter(view: FileRead): string {
  if (view.totalLines === 0) return `(${view.path}: empty file, 0 lines)`;
  const next = view.nextOffset === null
    ? ""
    : `; next: --offset ${view.nextOffset}`;
  return `(lines ${view.startLine}–${view.endLine} of ${view.totalLines}${next})`;
}

// A relative path typed from outside the root is the likeliest slip; say how
// it was resolved.
function explainOutside(
  ctx: CliContext,
  typed: string,
  error: unknown,
): unknown {
  if (!(error instanceof OutsideRootError) || isAbsolute(typed)) return error;
  const rel = relative(ctx.root, ctx.cwd);
  if (rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))) return error;
  return new OutsideRootError(
    `${error.message} Relative paths are taken from the root ${ctx.root}, since the working folder ${ctx.cwd} lies outside it; give the path from the root.`,
  );
}

/**
 * Runs `read`, `patch` or `write`.
 *
 * @param ctx The command's context.
 * @returns 0 done, 1 refused (stale, not read, outside the root, not found), 2 bad usage.
 */
export async function run(ctx: CliContext): Promise<number> {
  try {
    const ws = commandWorkspace(ctx);
    switch (ctx.spec.name) {
      case "read":
        return await read(ctx, ws);
      case "patch":
        return await patch(ctx, ws);
      case "ls":
      case "grep":
        return await find(ctx, ws);
      default:
        return await write(ctx, ws);
    }
  } catch (error) {
    return await fail(ctx, error);
  }
}

type Ws = Workspace;

// The parser (and zod with it) loads only for a patch sent from a subfolder,
// so a read's start-up graph stays as small as before.
const loadParse = lazy<typeof import("../patch/parse.ts")>(
  import.meta.url,
  "../patch/parse.ts",
);

/** A root-relative path as the caller's folder sees it, when that lies inside the root. */
function callerPath(
  ctx: CliContext,
  realRoot: string,
  display: string,
): string {
  const base = pathBase(ctx.root, ctx.cwd);
  if (base === ctx.root) return display;
  let from = base;
  try {
    from = realpathSync(base);
  } catch {
    return display;
  }
  const rel = relative(from, join(realRoot, display)).split(sep).join("/");
  return rel === "" || isAbsolute(rel) ? display : rel;
}

async function read(ctx: CliContext, ws: Ws): Promise<number> {
  const [typed] = ctx.args;
  const window = {
    offset: intFlag(ctx, "offset"),
    limit: intFlag(ctx, "limit"),
    ...(ctx.values.outline === true ? { outline: true } : {}),
    anchors: ctx.values.lean === true ? "lean" as const : undefined,
  };
  let view: FileRead;
  try {
    view = await ws.read(ctx.path(typed), window);
  } catch (error) {
    throw explainOutside(ctx, typed, error);
  }
  if (ctx.json) {
    await ctx.out(JSON.stringify({ ok: true, ...view }));
  } else {
    if (view.note) await ctx.err(`Note: ${view.note}.\n`);
    // The first line names the file as a patch from here names it.
    await ctx.out(`@@ ${callerPath(ctx, ws.root, view.path)}`);
    if (view.text !== "") await ctx.out(view.text);
    await ctx.err(readFooter(view));
    for (const w of view.warnings ?? []) await ctx.err(`Warning: ${w}\n`);
  }
  return EXIT_OK;
}

/**
 * The patch with its paths taken as the caller typed them: from the
 * working folder when it lies inside the root, as `read` takes a path
 * (docs/cli.md), so `@@ a.ts` run from `root/src` names `src/a.ts`.
 */
async function fromCaller(
  ctx: CliContext,
  text: string,
): Promise<Patch | string> {
  if (ctx.patchPath("x") === "x") return text;
  const { parsePatch } = await loadParse();
  const parsed = parsePatch(text);
  return {
    files: parsed.files.map((f) => ({
      ...f,
      path: ctx.patchPath(f.path),
      ...(f.rename !== undefined ? { rename: ctx.patchPath(f.rename) } : {}),
      ...(f.moves
        ? {
          moves: f.moves.map((m) =>
            m.to !== undefined ? { ...m, to: ctx.patchPath(m.to) } : m
          ),
        }
        : {}),
    })),
  };
}

async function patch(ctx: CliContext, ws: Ws): Promise<number> {
  const { readInput } = await import("./_input.ts");
  const text = await readInput(ctx, ctx.args[0] ?? "-", "the patch");
  if (text.trim() === "") {
    throw new TypeError(
      `No patch given: ${
        ctx.args[0] === undefined || ctx.args[0] === "-"
          ? "standard input was empty"
          : `"${ctx.args[0]}" is empty`
      }. Pass a patch file, or send the patch (JSON or text form) on standard input; see hashline patch --help`,
    );
  }
  const options: PatchOptions = {
    dryRun: ctx.values["dry-run"] === true,
    rebase: ctx.values.rebase === true,
  };
  const result = await ws.patch(await fromCaller(ctx, text), options);
  await printResult(ctx, {
    dryRun: result.dryRun,
    files: result.files,
    summary: result.summary,
    checks: result.checks,
    ...(result.entry ? { entry: result.entry } : {}),
    ...(result.dialect ? { dialect: result.dialect } : {}),
  }, result.summary);
  return EXIT_OK;
}

async function find(ctx: CliContext, ws: Ws): Promise<number> {
  const found = ctx.spec.name === "ls"
    ? await ws.list({ glob: ctx.args[0] })
    : await ws.search({ pattern: ctx.args[0], glob: ctx.args[1] });
  await printResult(ctx, found, found.text);
  return EXIT_OK;
}

async function write(ctx: CliContext, ws: Ws): Promise<number> {
  const [typed, source] = ctx.args;
  const target = ctx.path(typed);
  const { fileSize, readInput } = await import("./_input.ts");
  const content = await readInput(ctx, source, "the content");
  if (content === "" && source === "-" && ctx.values["allow-empty"] !== true) {
    const size = await fileSize(target);
    if (size !== undefined && size > 0) {
      throw new TypeError(
        `Refused to empty "${typed}": standard input was empty (closed, or the content was never sent) and the file holds ${size} bytes. Nothing was written. Send the content on standard input, name a file instead of -, or pass --allow-empty to empty it on purpose.`,
      );
    }
  }
  let result;
  try {
    result = await ws.write(target, content);
  } catch (error) {
    throw explainOutside(ctx, typed, error);
  }
  await printResult(ctx, result, result.summary);
  return EXIT_OK;
}
