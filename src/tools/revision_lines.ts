/**
 * Anchored views of revisions: a stored source shown as `LINE:HH|content`
 * windows, so a model can build the hashline patches `source_patch` takes.
 * A revision never changes, so these anchors never go stale.
 *
 * @module
 */
import { formatHashlines } from "../anchor/format.ts";
import type { RevisionStore } from "../store/types.ts";
import { MAX_READ_LINES } from "./inputs.ts";

/** One anchored window of a revision. */
export interface RevisionLines {
  /** Full ref of the revision. */
  ref: string;
  /** Its short handle. */
  handle: string;
  /** `LINE:HH|content` lines joined with `\n`. */
  text: string;
  /** Lines in the whole revision. */
  totalLines: number;
  /** First line shown. */
  startLine: number;
  /** Last line shown (`startLine - 1` when none). */
  endLine: number;
  /** Where the next window starts, or null at the end. */
  nextOffset: number | null;
}

/**
 * An anchored window of a revision: `LINE:HH|content` lines, so a model can
 * build the patches `source_patch` takes.
 *
 * @param store Where the revision is.
 * @param refOrHandle The revision.
 * @param window `offset` (1-based line, default 1) and `limit` (lines,
 *   default 2000, at most 10 000).
 * @returns The window, with the full ref and the handle.
 * @throws {TypeError} Offset 0 (lines count from 1).
 * @throws {RangeError} A limit over 10 000 lines, or an offset past the end.
 * @throws {NotFoundError} Unknown ref or handle.
 */
export async function anchoredRevision(
  store: RevisionStore,
  refOrHandle: string,
  window: { offset?: number; limit?: number },
): Promise<RevisionLines> {
  if (window.offset === 0) {
    throw new TypeError(
      'Field "offset" counts lines from 1 when anchors is true: send 1 or more.',
    );
  }
  if (window.limit !== undefined && window.limit > MAX_READ_LINES) {
    throw new RangeError(
      `Field "limit" is at most ${MAX_READ_LINES} lines, got ${window.limit}: read the revision in windows, continuing from each nextOffset.`,
    );
  }
  const id = await store.resolve(refOrHandle);
  const source = await store.get(id.ref);
  const view = formatHashlines(source, window);
  return { ref: id.ref, handle: id.handle, ...view };
}
