/**
 * Ordered, all-or-nothing string replacements (docs/store.md "Edits").
 *
 * @module
 */
import { applyStringEdits as applyEdits } from "../patch/string_edit.ts";
import { describe, unpairedSurrogateAt } from "./_ref.ts";
import { MAX_SOURCE_BYTES } from "./limits.ts";
import type { StringEdit } from "./types.ts";

/**
 * Applies every edit in order to a copy of the text; the first edit that
 * matches zero times, or several times without `replaceAll`, refuses them
 * all, and so does the first whose result would pass the 1 MiB source
 * limit (before that result is built).
 *
 * @param text The base source.
 * @param edits The edits as the caller sent them.
 * @param name Names the base revision in messages.
 * @returns The edited text.
 * @throws {TypeError} Edits of the wrong shape, or an empty `oldString`.
 * @throws {EditRefusedError} `NO_MATCH` or `MANY_MATCHES`.
 * @throws {TooLargeError} When an edit would pass the source limit.
 */
export function applyStringEdits(
  text: string,
  edits: unknown,
  name: string,
): string {
  return applyEdits(text, checkEdits(edits), {
    name,
    maxBytes: MAX_SOURCE_BYTES,
  });
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
