/**
 * `hashline store …`: the revision store kept in the state folder
 * (`.hashline/` under the root, or `--state` / `HASHLINE_STORE`).
 *
 * @module
 */
import { type CheckMode, describeCheck } from "../check/mod.ts";
import { formatHashlines } from "../anchor/format.ts";
import { openFileStore } from "../store/file_store.ts";
import type { EditResult, RevisionStore } from "../store/types.ts";
import { type CliContext, EXIT_OK, fail, printResult } from "./_context.ts";
import { commandWorkspace } from "./_workspace.ts";
import { intFlag, stringFlag } from "./_flags.ts";
import { readInput } from "./_input.ts";
import { join } from "node:path";
import { exportToWorkspace } from "../tools/export.ts";

type Sub = (ctx: CliContext, store: RevisionStore) => Promise<number>;

const SUBCOMMANDS: Record<string, Sub> = {
  "store put": put,
  "store import": put,
  "store read": read,
  "store get": get,
  "store source": source,
  "store edit": edit,
  "store patch": patch,
  "store export": exportCommand,
  "store history": history,
  "store resolve": resolveCommand,
};

/**
 * Runs one `store` command. With `--json` it prints exactly one JSON
 * document (`{ ok: true, … }` or `{ ok: false, error }`).
 *
 * @param ctx The command's context.
 * @returns 0 done, 1 refused or not found, 2 bad usage.
 */
export async function run(ctx: CliContext): Promise<number> {
  let store: RevisionStore | undefined;
  try {
    store = openFileStore(ctx.stateDir);
    return await SUBCOMMANDS[ctx.spec.name](ctx, store);
  } catch (error) {
    return await fail(ctx, error);
  } finally {
    await store?.close();
  }
}

async function put(ctx: CliContext, store: RevisionStore): Promise<number> {
  const [file] = ctx.args;
  const id = file === "-"
    ? await store.put(await readInput(ctx, "-", "the source"))
    : await store.importFrom(ctx.path(file));
  await printResult(ctx, { ...id }, `${id.ref} ${id.handle}`);
  return EXIT_OK;
}

async function read(ctx: CliContext, store: RevisionStore): Promise<number> {
  const [ref] = ctx.args;
  const window = {
    offset: intFlag(ctx, "offset"),
    limit: intFlag(ctx, "limit"),
  };
  const id = await store.resolve(ref);
  const view = formatHashlines(await store.get(ref), window);
  if (ctx.json) {
    await ctx.out(JSON.stringify({ ok: true, ...id, ...view }));
    return EXIT_OK;
  }
  if (view.text !== "") await ctx.out(view.text);
  const next = view.nextOffset === null
    ? ""
    : `; next: --offset ${view.nextOffset}`;
  await ctx.err(
    view.totalLines === 0
      ? `(${id.handle}: empty, 0 lines)`
      : `(${id.handle} lines ${view.startLine}–${view.endLine} of ${view.totalLines}${next})`,
  );
  return EXIT_OK;
}

async function get(ctx: CliContext, store: RevisionStore): Promise<number> {
  const [ref] = ctx.args;
  const out = stringFlag(ctx, "out");
  if (out !== undefined) return await exportTo(ctx, store, ref, out);
  const text = await store.get(ref);
  if (ctx.json) {
    const id = await store.resolve(ref);
    await ctx.out(JSON.stringify({ ok: true, ...id, source: text }));
  } else {
    // The exact bytes: a source without a final newline must not gain one.
    await ctx.write(text);
  }
  return EXIT_OK;
}

async function source(ctx: CliContext, store: RevisionStore): Promise<number> {
  const [ref] = ctx.args;
  const found = await store.source(ref, {
    query: stringFlag(ctx, "query"),
    offset: intFlag(ctx, "offset", 0),
    limit: intFlag(ctx, "limit", 1),
  });
  if (ctx.json) {
    const id = await store.resolve(ref);
    await ctx.out(JSON.stringify({ ok: true, ...id, ...found }));
    return EXIT_OK;
  }
  if (!found.found) {
    await ctx.err(
      `No match for the query in ${ref} (searched from offset ${found.offset}).`,
    );
    return EXIT_OK;
  }
  await ctx.write(found.code);
  const end = found.offset + found.code.length;
  const more = found.nextOffset === null
    ? "end of source"
    : `more: --offset ${found.nextOffset}`;
  await ctx.err(
    `\n[chars ${found.offset}..${end} of ${found.totalChars}; ${more}]`,
  );
  return EXIT_OK;
}

async function edit(ctx: CliContext, store: RevisionStore): Promise<number> {
  const [ref] = ctx.args;
  // The parser has checked that both flags were given.
  const oldString = stringFlag(ctx, "old") ?? "";
  const newString = stringFlag(ctx, "new") ?? "";
  const replaceAll = ctx.values["replace-all"] === true;
  await printEdit(
    ctx,
    await store.edit(ref, [{ oldString, newString, replaceAll }], {
      check: ctx.values.check as CheckMode | undefined,
    }),
  );
  return EXIT_OK;
}

async function patch(ctx: CliContext, store: RevisionStore): Promise<number> {
  const [ref, file] = ctx.args;
  const text = await readInput(ctx, file ?? "-", "the patch");
  if (text.trim() === "") {
    throw new TypeError(
      "No patch given: pass a patch file, or send the patch (text or JSON form) on standard input; see hashline store patch --help",
    );
  }
  await printEdit(
    ctx,
    await store.patch(ref, text, {
      check: ctx.values.check as CheckMode | undefined,
    }),
  );
  return EXIT_OK;
}

async function exportCommand(
  ctx: CliContext,
  store: RevisionStore,
): Promise<number> {
  // The parser has checked that --out was given.
  return await exportTo(ctx, store, ctx.args[0], stringFlag(ctx, "out") ?? "");
}

async function history(ctx: CliContext, store: RevisionStore): Promise<number> {
  const entries = await store.history(ctx.args[0]);
  const lines = entries.map((h) =>
    `${h.handle}  ${h.op.padEnd(5)}  ${h.createdAt}  ${h.ref}${
      h.parentRef ? `  from ${h.parentRef}` : ""
    }`
  );
  await printResult(ctx, { history: entries }, lines.join("\n"));
  return EXIT_OK;
}

async function resolveCommand(
  ctx: CliContext,
  store: RevisionStore,
): Promise<number> {
  const id = await store.resolve(ctx.args[0]);
  await printResult(ctx, { ...id }, `${id.ref} ${id.handle}`);
  return EXIT_OK;
}

async function exportTo(
  ctx: CliContext,
  store: RevisionStore,
  ref: string,
  out: string,
): Promise<number> {
  // A new file of the workspace, as every other write: confined to the root,
  // `.git/`, `.hashline` and `--deny` refused, recorded in the history.
  const ws = commandWorkspace(ctx);
  const done = await exportToWorkspace(
    ws,
    store,
    ref,
    ctx.path(out),
    ctx.session,
  );
  const path = join(ctx.root, done.path);
  await printResult(
    ctx,
    { path, ref: done.ref, bytes: done.bytes },
    `Wrote ${done.bytes} bytes of ${ref} to ${path}`,
  );
  return EXIT_OK;
}

async function printEdit(ctx: CliContext, r: EditResult): Promise<void> {
  const text =
    `New revision ${r.handle} (${r.ref}) from ${r.parentRef}\n${r.diff}${
      r.diffTruncated ? "[diff cut at 8000 chars]" : ""
    }${r.check ? `\n\nWarning: ${describeCheck(r.check)}` : ""}`;
  await printResult(ctx, { ...r }, text);
}
