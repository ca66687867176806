/**
 * When an undo finds its file gone, whether a later entry renamed it: the
 * refusal then names the path the file has now and the entry that moved
 * it there (docs/history.md "Undo"), instead of only saying it is gone.
 *
 * @module
 */
import { type EntriesScope, history } from "./entries.ts";

/** Entries a look for renames goes back through. */
const LOOK_BACK = 1000;

/**
 * Where the file at `path` was renamed to after entry `id`, following a
 * chain of renames, and the first entry that renamed it; or null.
 */
export async function renamedSince(
  ctx: EntriesScope,
  id: string,
  path: string,
): Promise<{ path: string; by: string } | null> {
  const after = Number(id.slice(2));
  const entries = (await history(ctx, { limit: LOOK_BACK }))
    .filter((e) => Number(e.id.slice(2)) > after)
    .reverse();
  let now = path;
  let by: string | undefined;
  for (const e of entries) {
    const moved = e.files.find((f) => f.renamedFrom === now);
    if (!moved) continue;
    by ??= e.id;
    now = moved.path;
  }
  return by === undefined ? null : { path: now, by };
}
