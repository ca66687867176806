/**
 * String-edit matching (docs/store.md "Edits", the `str_replace` edit
 * format): find the text to replace, or refuse — never zero matches, never
 * several unless every one is meant — and apply ordered replacements within
 * a size limit. The str_replace tool and store edits both go through here.
 *
 * @module
 */
import { utf8Length } from "../_internal/utf8.ts";
import { EditRefusedError, TooLargeError } from "../errors.ts";

/** One replacement: every match of `oldString`, or the only one, becomes `newString`. */
export interface StringReplacement {
  /** The exact text to replace (not empty). */
  oldString: string;
  /** What replaces it. */
  newString: string;
  /** Replace every match (default: there must be exactly one). */
  replaceAll?: boolean;
}

/** What the refusals of {@link findString} say. */
export interface MatchMessages {
  /** Why nothing matched, and what to do. */
  notFound(): string;
  /** Why `count` matches are too many, and what to do. */
  many(count: number): string;
}

/**
 * Start of every non-overlapping match of `needle`, left to right.
 *
 * @param text The text searched.
 * @param needle The text looked for (not empty).
 * @returns The offsets, in UTF-16 units.
 */
export function matchesOf(text: string, needle: string): number[] {
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

/**
 * Finds the text to replace: the first of `needles` that occurs at all,
 * and it must occur once unless `replaceAll`.
 *
 * @param text The text searched.
 * @param needles Spellings of the text to replace, tried in order (such as the text with CRLF line ends).
 * @param replaceAll Whether several matches may all be replaced.
 * @param say The messages of the refusals.
 * @returns The matches and which needle found them.
 * @throws {EditRefusedError} `NO_MATCH` or `MANY_MATCHES`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findString } from "./string_edit.ts";
 * const say = { notFound: () => "none", many: (n: number) => `${n}` };
 * assert.deepEqual(findString("a-b-a", ["a"], true, say), { hits: [0, 4], which: 0 });
 * assert.throws(() => findString("a-b-a", ["a"], false, say), { code: "MANY_MATCHES" });
 * ```
 */
export function findString(
  text: string,
  needles: readonly string[],
  replaceAll: boolean,
  say: MatchMessages,
): { hits: number[]; which: number } {
  for (let which = 0; which < needles.length; which++) {
    const hits = matchesOf(text, needles[which]);
    if (hits.length === 0) continue;
    if (hits.length > 1 && !replaceAll) {
      throw new EditRefusedError(say.many(hits.length), "MANY_MATCHES");
    }
    return { hits, which };
  }
  throw new EditRefusedError(say.notFound(), "NO_MATCH");
}

/**
 * The text with each match (from {@link findString}) replaced.
 *
 * @param text The text.
 * @param hits Offsets of the matches, ascending.
 * @param length Length of each match.
 * @param replacement What replaces each.
 * @returns The new text.
 */
export function replaceMatches(
  text: string,
  hits: readonly number[],
  length: number,
  replacement: string,
): string {
  let out = "";
  let from = 0;
  for (const at of hits) {
    out += text.slice(from, at) + replacement;
    from = at + length;
  }
  return out + text.slice(from);
}

/**
 * The refusal of a replacement that leaves the text as it was.
 *
 * @param path The file, as shown to the model.
 * @returns `NO_CHANGE`.
 */
export function noChange(path: string): EditRefusedError {
  return new EditRefusedError(
    `old_string and new_string are the same, so ${path} was left as it was.`,
    "NO_CHANGE",
  );
}

/** Options of {@link applyStringEdits}. */
export interface StringEditOptions {
  /** Names the text in messages (`revision p_0123…`). */
  name: string;
  /** Largest result in UTF-8 bytes: the first edit that would pass it stops them all. */
  maxBytes?: number;
}

/**
 * Applies ordered replacements to a copy of the text, all or none: the
 * first that matches zero times, or several times without `replaceAll`,
 * refuses them all, and so does the first whose result would pass
 * `maxBytes` (checked before that result is built).
 *
 * @param text The base text.
 * @param edits The replacements, in order (each sees the text the ones before it left).
 * @param options `name` for messages, `maxBytes` for the limit.
 * @returns The edited text.
 * @throws {EditRefusedError} `NO_MATCH` or `MANY_MATCHES`.
 * @throws {TooLargeError} When an edit would make the text larger than `maxBytes`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyStringEdits } from "./string_edit.ts";
 * const edits = [{ oldString: "a", newString: "aa", replaceAll: true }];
 * assert.equal(applyStringEdits("a-a", edits, { name: "x" }), "aa-aa");
 * assert.throws(() => applyStringEdits("a-a", edits, { name: "x", maxBytes: 4 }), { code: "TOO_LARGE" });
 * ```
 */
export function applyStringEdits(
  text: string,
  edits: readonly StringReplacement[],
  options: StringEditOptions,
): string {
  const { name, maxBytes } = options;
  let out = text;
  let bytes = maxBytes === undefined ? 0 : utf8Length(text);
  edits.forEach((edit, i) => {
    const which = edits.length === 1
      ? "The edit"
      : `Edit ${i + 1} of ${edits.length}`;
    const after = i === 0 ? "" : " (after the edits before it)";
    const { hits } = findString(
      out,
      [edit.oldString],
      edit.replaceAll === true,
      {
        notFound: () =>
          `${which}: oldString was not found in ${name}${after}; nothing was changed. Copy the text exactly as it stands, whitespace included (read it with a source read and a query).`,
        many: (n) =>
          `${which}: oldString matches ${n} times in ${name}${after}; nothing was changed. Add surrounding text to oldString so it matches exactly once, or set replaceAll to replace all ${n}.`,
      },
    );
    if (maxBytes !== undefined) {
      bytes += hits.length *
        (utf8Length(edit.newString) - utf8Length(edit.oldString));
      if (bytes > maxBytes) {
        throw new TooLargeError(
          `${which} would make ${name} ${bytes} bytes${after}, over the limit of ${maxBytes} bytes; nothing was changed. Replace less text, or split the source.`,
        );
      }
    }
    out = replaceMatches(out, hits, edit.oldString.length, edit.newString);
  });
  return out;
}
