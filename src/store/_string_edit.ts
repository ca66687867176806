/**
 * Ordered, all-or-nothing string replacements (docs/store.md "Edits").
 *
 * @module
 */
import { EditRefusedError } from "../errors.ts";
import { describe, unpairedSurrogateAt } from "./_ref.ts";
import type { StringEdit } from "./types.ts";

/**
 * Applies every edit in order to a copy of the text; the first edit that
 * matches zero times, or several times without `replaceAll`, refuses them all.
 *
 * @param text The base source.
 * @param edits The edits as the caller sent them.
 * @param name Names the base revision in messages.
 * @returns The edited text.
 * @throws {TypeError} Edits of the wrong shape, or an empty `oldString`.
 * @throws {EditRefusedError} `NO_MATCH` or `MANY_MATCHES`.
 */
export function applyStringEdits(
  text: string,
  edits: unknown,
  name: string,
): string {
  const list = checkEdits(edits);
  let out = text;
  list.forEach((edit, i) => {
    const which = list.length === 1
      ? "The edit"
      : `Edit ${i + 1} of ${list.length}`;
    const after = i === 0 ? "" : " (after the edits before it)";
    const hits = matchesOf(out, edit.oldString);
    if (hits.length === 0) {
      throw new EditRefusedError(
        `${which}: oldString was not found in ${name}${after}; nothing was changed. Copy the text exactly as it stands, whitespace included (read it with a source read and a query).`,
        "NO_MATCH",
      );
    }
    if (hits.length > 1 && edit.replaceAll !== true) {
      throw new EditRefusedError(
        `${which}: oldString matches ${hits.length} times in ${name}${after}; nothing was changed. Add surrounding text to oldString so it matches exactly once, or set replaceAll to replace all ${hits.length}.`,
        "MANY_MATCHES",
      );
    }
    let next = "";
    let from = 0;
    for (const at of hits) {
      next += out.slice(from, at) + edit.newString;
      from = at + edit.oldString.length;
    }
    out = next + out.slice(from);
  });
  return out;
}

/** Start of every non-overlapping match, left to right. */
function matchesOf(text: string, needle: string): number[] {
  const out: number[] = [];
  for (
    let at = text.indexOf(needle);
    at !== -1;
    at = text.indexOf(needle, at + needle.length)
  ) {
    out.push(at);
  }
  return out;
}

function checkEdits(edits: unknown): StringEdit[] {
  if (!Array.isArray(edits)) {
    throw new TypeError(
      `edits must be an array of { oldString, newString, replaceAll? }, got ${
        describe(edits)
      }.`,
    );
  }
  if (edits.length === 0) {
    throw new TypeError(
      "edits is empty: send at least one { oldString, newString }.",
    );
  }
  return edits.map((e: unknown, i) => {
    const at = `edits[${i}]`;
    if (e === null || typeof e !== "object" || Array.isArray(e)) {
      throw new TypeError(
        `${at} must be an object { oldString, newString, replaceAll? }, got ${
          describe(e)
        }.`,
      );
    }
    const { oldString, newString, replaceAll } = e as Record<string, unknown>;
    for (
      const [field, v] of [["oldString", oldString], [
        "newString",
        newString,
      ]] as const
    ) {
      if (typeof v !== "string") {
        throw new TypeError(
          `${at}.${field} must be a string, got ${describe(v)}.`,
        );
      }
      const bad = unpairedSurrogateAt(v);
      if (bad !== -1) {
        throw new TypeError(
          `${at}.${field} holds an unpaired surrogate at UTF-16 index ${bad}; send valid Unicode text.`,
        );
      }
    }
    if (oldString === "") {
      throw new TypeError(
        `${at}.oldString is empty: name the exact text to replace (to add text, include a neighbouring line in oldString and newString).`,
      );
    }
    if (replaceAll !== undefined && typeof replaceAll !== "boolean") {
      throw new TypeError(
        `${at}.replaceAll must be true or false, got ${describe(replaceAll)}.`,
      );
    }
    return {
      oldString: oldString as string,
      newString: newString as string,
      replaceAll,
    };
  });
}
