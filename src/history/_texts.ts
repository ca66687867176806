/**
 * What is known of the long text fields of hunks (their exact bytes, or the
 * blob holding them), so that keeping them as blobs never encodes or
 * hashes them a second time.
 *
 * @module
 */
import type { Hunk } from "./types.ts";

/** Text fields of a hunk longer than this (UTF-16 units) go to a blob. */
export const INLINE_MAX = 4096;

/**
 * What is known of a long text field of a hunk without encoding it again:
 * its UTF-8 bytes (a file's bytes as loaded), or the blob that holds it (a
 * text read back from one).
 */
export type KnownText = { bytes: Uint8Array } | { sha: string; size: number };

const knownTexts = new WeakMap<
  Hunk,
  Partial<Record<"old" | "new", KnownText>>
>();

/**
 * Notes what is known of one text field of a hunk, so that keeping it as a
 * blob neither encodes nor hashes it again (a deletion of a whole large
 * file, an undo that writes back the text it read).
 *
 * @param h The hunk.
 * @param field `"old"` or `"new"`.
 * @param known Its exact UTF-8 bytes, or the blob already holding it.
 */
export function knowText(
  h: Hunk,
  field: "old" | "new",
  known: KnownText,
): void {
  const all = knownTexts.get(h) ?? {};
  all[field] = known;
  knownTexts.set(h, all);
}

/**
 * Carries what is known of the long texts of `from` over to the fields of
 * `to` that hold the very same text (an undo writes back what the entry
 * removed: its new text is the entry's old one).
 */
export function carryKnown(from: readonly Hunk[], to: readonly Hunk[]): void {
  // By length first: an entry may have many hunks, and only equal lengths
  // can hold the same text.
  const byLength = new Map<number, [string, KnownText][]>();
  for (const f of from) {
    const known = knownTexts.get(f);
    if (!known) continue;
    for (const k of ["old", "new"] as const) {
      const k2 = known[k];
      if (!k2) continue;
      const same = byLength.get(f[k].length);
      if (same) same.push([f[k], k2]);
      else byLength.set(f[k].length, [[f[k], k2]]);
    }
  }
  if (byLength.size === 0) return;
  for (const h of to) {
    for (const field of ["old", "new"] as const) {
      const text = h[field];
      if (text.length <= INLINE_MAX) continue;
      const match = byLength.get(text.length)?.find(([t]) => t === text);
      if (match) knowText(h, field, match[1]);
    }
  }
}

/** What {@link knowText} noted of one text field of a hunk. */
export function knownText(
  h: Hunk,
  field: "old" | "new",
): KnownText | undefined {
  return knownTexts.get(h)?.[field];
}
