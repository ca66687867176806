/**
 * `hashline store …`: the revision store from the command line, kept in the
 * state folder (`.hashline/` under the working folder, or `HASHLINE_STORE`).
 *
 * @module
 */
import { readStdin, writeStdout } from "../_runtime/env.ts";
import { openFileStore } from "../store/file_store.ts";
import type { EditResult, RevisionStore } from "../store/types.ts";
import { decodeText } from "../store/_utf8.ts";
import {
  type CliContext,
  EXIT_OK,
  intFlag,
  readInput,
  reportError,
  stringFlag,
} from "./_cli_common.ts";

type Sub = (
  ctx: CliContext,
  args: string[],
  store: RevisionStore,
) => Promise<number>;

const SUBCOMMANDS: Record<string, { usage: string; run: Sub }> = {
  put: { usage: "store put FILE|-", run: putCommand },
  import: { usage: "store import FILE", run: putCommand },
  get: { usage: "store get REF [--out FILE]", run: getCommand },
  source: {
    usage: "store source REF [--query Q] [--offset N] [--limit N]",
    run: sourceCommand,
  },
  edit: {
    usage: "store edit REF --old TEXT --new TEXT [--replace-all]",
    run: editCommand,
  },
  patch: { usage: "store patch REF [FILE|-]", run: patchCommand },
  export: { usage: "store export REF --out FILE", run: exportCommand },
  history: { usage: "store history REF", run: historyCommand },
  resolve: { usage: "store resolve REF", run: resolveCommand },
};

/**
 * Runs `store <subcommand>`: `put FILE|-`, `import FILE`, `get REF [--out FILE]`,
 * `source REF [--query Q] [--offset N] [--limit N]`,
 * `edit REF --old TEXT --new TEXT [--replace-all]`, `patch REF [FILE|-]`,
 * `export REF --out FILE`, `history REF`, `resolve REF`. With `--json` it
 * prints exactly one JSON document (`{ ok: true, … }` or `{ ok: false, error }`).
 *
 * @param ctx The command's context; `ctx.positionals[0]` is the subcommand.
 * @returns 0 done, 1 refused or not found, 2 bad usage.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtemp, rm, writeFile } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { runStoreCommand } from "./_cli_store.ts";
 *
 * const dir = await mkdtemp(join(tmpdir(), "hashline-cli-"));
 * await writeFile(join(dir, "a.txt"), "one\ntwo\n");
 * const printed: string[] = [];
 * const code = await runStoreCommand({
 *   positionals: ["put", join(dir, "a.txt")],
 *   flags: new Map([["json", true]]),
 *   json: true,
 *   root: dir,
 *   session: "default",
 *   stateDir: join(dir, ".hashline"),
 *   out: async (t) => void printed.push(t),
 *   err: async (t) => void printed.push(t),
 * });
 * assert.equal(code, 0);
 * assert.match(JSON.parse(printed[0]).handle, /^p_[0-9a-f]{12}$/);
 * await rm(dir, { recursive: true, force: true });
 * ```
 */
export async function runStoreCommand(ctx: CliContext): Promise<number> {
  const [name, ...args] = ctx.positionals;
  let store: RevisionStore | undefined;
  try {
    const sub = name === undefined ? undefined : SUBCOMMANDS[name];
    if (sub === undefined || !Object.hasOwn(SUBCOMMANDS, name)) {
      const list = Object.values(SUBCOMMANDS).map((s) => s.usage).join("; ");
      throw new TypeError(
        `${
          name === undefined
            ? "No store command given"
            : `Unknown store command "${name}"`
        }. Use one of: ${list}.`,
      );
    }
    store = openFileStore(ctx.stateDir);
    return await sub.run(ctx, args, store);
  } catch (error) {
    return await reportError(ctx, error);
  } finally {
    await store?.close();
  }
}

async function putCommand(
  ctx: CliContext,
  args: string[],
  store: RevisionStore,
): Promise<number> {
  const file = onlyArg(args, "FILE (or - for standard input)", "store put");
  const id = file === "-"
    ? await store.put(decodeText(await readStdin(), "Standard input"))
    : await store.importFrom(file);
  await print(ctx, { ...id }, `${id.ref} ${id.handle}`);
  return EXIT_OK;
}

async function getCommand(
  ctx: CliContext,
  args: string[],
  store: RevisionStore,
): Promise<number> {
  const ref = onlyArg(args, "REF", "store get");
  const out = stringFlag(ctx.flags, "out");
  if (out !== undefined) return await exportTo(ctx, store, ref, out);
  const source = await store.get(ref);
  if (ctx.json) {
    const id = await store.resolve(ref);
    await ctx.out(JSON.stringify({ ok: true, ...id, source }));
  } else {
    // The exact bytes: a source without a final newline must not gain one.
    await writeStdout(source);
  }
  return EXIT_OK;
}

async function sourceCommand(
  ctx: CliContext,
  args: string[],
  store: RevisionStore,
): Promise<number> {
  const ref = onlyArg(args, "REF", "store source");
  const read = await store.source(ref, {
    query: stringFlag(ctx.flags, "query"),
    offset: intFlag(ctx.flags, "offset", 0),
    limit: intFlag(ctx.flags, "limit", 1),
  });
  if (ctx.json) {
    const id = await store.resolve(ref);
    await ctx.out(JSON.stringify({ ok: true, ...id, ...read }));
    return EXIT_OK;
  }
  if (!read.found) {
    await ctx.err(
      `No match for the query in ${ref} (searched from offset ${read.offset}).`,
    );
    return EXIT_OK;
  }
  await writeStdout(read.code);
  const end = read.offset + read.code.length;
  const more = read.nextOffset === null
    ? "end of source"
    : `more: --offset ${read.nextOffset}`;
  await ctx.err(
    `\n[chars ${read.offset}..${end} of ${read.totalChars}; ${more}]`,
  );
  return EXIT_OK;
}

async function editCommand(
  ctx: CliContext,
  args: string[],
  store: RevisionStore,
): Promise<number> {
  const ref = onlyArg(args, "REF", "store edit");
  const oldString = stringFlag(ctx.flags, "old");
  const newString = stringFlag(ctx.flags, "new");
  if (oldString === undefined || newString === undefined) {
    throw new TypeError(
      `store edit needs --old TEXT and --new TEXT (missing ${
        oldString === undefined ? "--old" : "--new"
      }).`,
    );
  }
  const replaceAll = ctx.flags.get("replace-all") === true;
  await printEdit(
    ctx,
    await store.edit(ref, [{ oldString, newString, replaceAll }]),
  );
  return EXIT_OK;
}

async function patchCommand(
  ctx: CliContext,
  args: string[],
  store: RevisionStore,
): Promise<number> {
  if (args.length < 1 || args.length > 2) {
    throw new TypeError(
      "Usage: store patch REF [FILE|-] (the patch in text or JSON form; - or none reads standard input).",
    );
  }
  const [ref, file] = args;
  await printEdit(ctx, await store.patch(ref, await readInput(file)));
  return EXIT_OK;
}

async function exportCommand(
  ctx: CliContext,
  args: string[],
  store: RevisionStore,
): Promise<number> {
  const ref = onlyArg(args, "REF", "store export");
  const out = stringFlag(ctx.flags, "out");
  if (out === undefined) {
    throw new TypeError(
      "store export needs --out FILE (a file that does not exist yet).",
    );
  }
  return await exportTo(ctx, store, ref, out);
}

async function historyCommand(
  ctx: CliContext,
  args: string[],
  store: RevisionStore,
): Promise<number> {
  const history = await store.history(onlyArg(args, "REF", "store history"));
  const lines = history.map((h) =>
    `${h.handle}  ${h.op.padEnd(5)}  ${h.createdAt}  ${h.ref}${
      h.parentRef ? `  from ${h.parentRef}` : ""
    }`
  );
  await print(ctx, { history }, lines.join("\n"));
  return EXIT_OK;
}

async function resolveCommand(
  ctx: CliContext,
  args: string[],
  store: RevisionStore,
): Promise<number> {
  const id = await store.resolve(onlyArg(args, "REF", "store resolve"));
  await print(ctx, { ...id }, `${id.ref} ${id.handle}`);
  return EXIT_OK;
}

async function exportTo(
  ctx: CliContext,
  store: RevisionStore,
  ref: string,
  out: string,
): Promise<number> {
  const done = await store.exportTo(ref, out);
  await print(
    ctx,
    { ...done },
    `Wrote ${done.bytes} bytes of ${ref} to ${done.path}`,
  );
  return EXIT_OK;
}

async function printEdit(ctx: CliContext, r: EditResult): Promise<void> {
  const text =
    `New revision ${r.handle} (${r.ref}) from ${r.parentRef}\n${r.diff}${
      r.diffTruncated ? "[diff cut at 8000 chars]" : ""
    }`;
  await print(ctx, { ...r }, text);
}

async function print(
  ctx: CliContext,
  body: Record<string, unknown>,
  text: string,
): Promise<void> {
  await ctx.out(ctx.json ? JSON.stringify({ ok: true, ...body }) : text);
}

function onlyArg(args: string[], what: string, usage: string): string {
  if (args.length !== 1) {
    throw new TypeError(
      `${usage} takes exactly one ${what}, got ${
        args.length === 0
          ? "none"
          : args.map((a) => JSON.stringify(a)).join(" ")
      }.`,
    );
  }
  return args[0];
}
