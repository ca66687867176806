/**
 * Path predicates shared by confinement, pins and recovery.
 *
 * @module
 */
import { sep } from "node:path";

/** Whether `path` is `dir` or lies under it (never a sibling that only shares its prefix). */
export function inside(path: string, dir: string): boolean {
  if (path === dir) return true;
  return path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}
