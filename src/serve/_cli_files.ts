/**
 * The workspace commands of the CLI: `read PATH [--offset N] [--limit N]`,
 * `patch [FILE|-] [--dry-run]` and `write PATH [FILE|-]`.
 *
 * @module
 */
import { type FileRead, openWorkspace } from "../workspace/mod.ts";
import {
  type CliContext,
  EXIT_OK,
  intFlag,
  readInput,
  reportError,
} from "./_cli_common.ts";

const COMMON_FLAGS = ["root", "session", "json", "help"];
const FLAGS: Record<"read" | "patch" | "write", string[]> = {
  read: ["offset", "limit"],
  patch: ["dry-run"],
  write: [],
};
const USAGE: Record<"read" | "patch" | "write", string> = {
  read: "hashline read PATH [--offset N] [--limit N]",
  patch: "hashline patch [FILE|-] [--dry-run]",
  write: "hashline write PATH [FILE|-]",
};

function checkUsage(
  command: "read" | "patch" | "write",
  ctx: CliContext,
): void {
  const allowed = new Set([...COMMON_FLAGS, ...FLAGS[command]]);
  for (const name of ctx.flags.keys()) {
    if (!allowed.has(name)) {
      throw new TypeError(
        `Unknown flag --${name} for ${command}. Usage: ${USAGE[command]}`,
      );
    }
  }
  const [min, max] = command === "patch"
    ? [0, 1]
    : command === "read"
    ? [1, 1]
    : [1, 2];
  const n = ctx.positionals.length;
  if (n < min || n > max) {
    throw new TypeError(
      `${command} takes ${min === max ? min : `${min} to ${max}`} argument${
        max === 1 ? "" : "s"
      }, got ${n}. Usage: ${USAGE[command]}`,
    );
  }
}

async function input(name: string | undefined, what: string): Promise<string> {
  try {
    return await readInput(name);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" || code === "EISDIR") {
      throw new TypeError(
        `Cannot read the ${what} from "${name}": no such file.`,
      );
    }
    throw error;
  }
}

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

/**
 * Runs `read`, `patch` or `write` and returns the exit code.
 *
 * `read` prints the view on standard output and a footer such as
 * `(lines 1–200 of 5000; next: --offset 201)` on standard error; with
 * `--json` it prints one document `{ ok: true, path, text, totalLines,
 * startLine, endLine, nextOffset }`. `patch` reads the patch (JSON or text
 * form) from FILE or standard input and prints the summary, or
 * `{ ok: true, dryRun, files, summary }`. `write` replaces or creates PATH
 * with the content of FILE or standard input.
 *
 * @param command The command word.
 * @param ctx Parsed flags, root, session and output.
 * @returns 0 done, 1 refused (stale, not read, outside the root, not found), 2 bad usage.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtemp, rm, writeFile } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { runFilesCommand } from "./_cli_files.ts";
 *
 * const dir = await mkdtemp(join(tmpdir(), "hashline-doc-"));
 * await writeFile(join(dir, "a.txt"), "x\ny\n");
 * const printed: string[] = [];
 * const code = await runFilesCommand("read", {
 *   positionals: ["a.txt"],
 *   flags: new Map<string, string | true>([["json", true]]),
 *   json: true,
 *   root: dir,
 *   session: "default",
 *   stateDir: join(dir, ".hashline"),
 *   out: async (t) => void printed.push(t),
 *   err: async () => {},
 * });
 * assert.equal(code, 0);
 * assert.equal(JSON.parse(printed[0]).text, "1:26|x\n2:4a|y");
 * await rm(dir, { recursive: true });
 * ```
 */
export async function runFilesCommand(
  command: "read" | "patch" | "write",
  ctx: CliContext,
): Promise<number> {
  try {
    checkUsage(command, ctx);
    const ws = openWorkspace(ctx.root, {
      session: ctx.session,
      stateDir: ctx.stateDir,
    });
    if (command === "read") {
      const view = await ws.read(ctx.positionals[0], {
        offset: intFlag(ctx.flags, "offset"),
        limit: intFlag(ctx.flags, "limit"),
      });
      if (ctx.json) {
        await ctx.out(JSON.stringify({ ok: true, ...view }));
      } else {
        if (view.text !== "") await ctx.out(view.text);
        await ctx.err(readFooter(view));
      }
      return EXIT_OK;
    }
    if (command === "patch") {
      const text = await input(ctx.positionals[0], "patch");
      if (text.trim() === "") {
        throw new TypeError(
          `No patch given: pass a patch file, or send the patch (JSON or text form) on standard input. Usage: ${USAGE.patch}`,
        );
      }
      const result = await ws.patch(text, {
        dryRun: ctx.flags.get("dry-run") === true,
      });
      if (ctx.json) {
        await ctx.out(JSON.stringify({
          ok: true,
          dryRun: result.dryRun,
          files: result.files,
          summary: result.summary,
        }));
      } else await ctx.out(result.summary);
      return EXIT_OK;
    }
    const content = await input(ctx.positionals[1], "content");
    const result = await ws.write(ctx.positionals[0], content);
    if (ctx.json) await ctx.out(JSON.stringify({ ok: true, ...result }));
    else await ctx.out(result.summary);
    return EXIT_OK;
  } catch (error) {
    return await reportError(ctx, error);
  }
}
