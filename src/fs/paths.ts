/**
 * Path predicates shared by confinement, pins and recovery, and the bounds
 * every path meets before any work is done on it.
 *
 * @module
 */
import { sep } from "node:path";
import { HashlineError } from "../errors.ts";
import { NAME_MAX_BYTES, utf8Length } from "../_internal/names.ts";

/** Longest path accepted, in UTF-8 bytes (Linux `PATH_MAX`). */
export const PATH_MAX_BYTES = 4096;
/** Most names (components) one path may hold. */
export const PATH_MAX_PARTS = 1024;

/** Whether `path` is `dir` or lies under it (never a sibling that only shares its prefix). */
export function inside(path: string, dir: string): boolean {
  if (path === dir) return true;
  return path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** The refusal of a path over one of the bounds (`BAD_PATH`, 400). */
export function badPath(message: string): HashlineError {
  return new HashlineError("BAD_PATH", message);
}

/**
 * Refuses a path over the bounds before any resolution: over
 * {@link PATH_MAX_BYTES} bytes, over {@link PATH_MAX_PARTS} names, or with
 * one name over 255 bytes. One pass over the path.
 *
 * @throws {HashlineError} `BAD_PATH` naming the bound.
 */
export function checkPathBounds(input: string): void {
  const shown = (n: number) =>
    input.length > n ? `"${input.slice(0, n)}…"` : `"${input}"`;
  const bytes = utf8Length(input);
  if (bytes > PATH_MAX_BYTES) {
    throw badPath(
      `Cannot use ${
        shown(60)
      }: the path is ${bytes} bytes long, over the limit of ${PATH_MAX_BYTES}. Use a shorter path.`,
    );
  }
  let parts = 1;
  let from = 0;
  for (let i = 0; i <= input.length; i++) {
    const c = i < input.length ? input[i] : "/";
    if (c !== "/" && c !== sep) continue;
    if (i > from && utf8Length(input.slice(from, i)) > NAME_MAX_BYTES) {
      throw badPath(
        `Cannot use ${shown(60)}: the name "${
          input.slice(from, Math.min(i, from + 40))
        }…" is over ${NAME_MAX_BYTES} bytes, longer than any file system allows.`,
      );
    }
    if (i < input.length) parts++;
    from = i + 1;
  }
  if (parts > PATH_MAX_PARTS) {
    throw badPath(
      `Cannot use ${
        shown(60)
      }: the path has ${parts} parts, over the limit of ${PATH_MAX_PARTS}.`,
    );
  }
}
