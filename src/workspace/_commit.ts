/**
 * The commit engine as the workspace's steps name it: the files of
 * `src/commit/` (`commit.ts` picks the path).
 *
 * @module
 */
export { commitFiles, commitsFlushed, commitSteps } from "../commit/commit.ts";
export type {
  CommitHooks,
  CommitRecord,
  StageEntry,
} from "../commit/commit.ts";
export type { CommitIntent, PendingEntry } from "../commit/types.ts";
