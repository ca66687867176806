/**
 * String-matching edit semantics of other tools, written from their
 * documented behaviour: strict str_replace (exactly one match), the MCP
 * filesystem server's `edit_file` (first match, then a whitespace-tolerant
 * line match), and Aider's SEARCH/REPLACE blocks (exact whole lines, then
 * leading whitespace ignored; first match). Each throws when it refuses.
 *
 * @module
 */
import { countOccurrences } from "./_lines.ts";

/**
 * Strict str_replace: the old text must occur exactly once.
 *
 * @param content The file now.
 * @param oldString Text to replace.
 * @param newString Replacement.
 * @returns The new content.
 * @throws {Error} On zero or several matches.
 */
export function strReplaceUnique(
  content: string,
  oldString: string,
  newString: string,
): string {
  const n = countOccurrences(content, oldString, 2);
  if (n === 0) throw new Error("str_replace: old_string not found.");
  if (n > 1) throw new Error("str_replace: old_string matches more than once.");
  return content.replace(oldString, () => newString);
}

const indentOf = (s: string): string => /^\s*/.exec(s)![0];

/**
 * The MCP filesystem server's `edit_file`: line ends normalised to LF (and
 * written back so), the first exact occurrence replaced; failing that, the
 * first run of lines equal once trimmed, re-indented to the found line.
 *
 * @param content The file now.
 * @param oldText Text to replace.
 * @param newText Replacement.
 * @returns The new content (LF line ends).
 * @throws {Error} When neither match is found.
 */
export function firstMatchEdit(
  content: string,
  oldText: string,
  newText: string,
): string {
  const text = content.replaceAll("\r\n", "\n");
  const old = oldText.replaceAll("\r\n", "\n");
  const fresh = newText.replaceAll("\r\n", "\n");
  if (text.includes(old)) return text.replace(old, () => fresh);
  const lines = text.split("\n");
  const want = old.split("\n");
  for (let i = 0; i + want.length <= lines.length; i++) {
    if (!want.every((w, k) => w.trim() === lines[i + k].trim())) continue;
    const base = indentOf(lines[i]);
    const out = fresh.split("\n").map((line, k) => {
      if (k === 0) return base + line.trimStart();
      const was = indentOf(want[k] ?? "");
      const now = indentOf(line);
      return was && now
        ? base + " ".repeat(Math.max(0, now.length - was.length)) +
          line.trimStart()
        : line;
    });
    lines.splice(i, want.length, ...out);
    return lines.join("\n");
  }
  throw new Error("edit_file: could not find an exact match for the edit.");
}

function keepEnds(text: string): string[] {
  if (text === "") return [];
  const withEnd = text.endsWith("\n") ? text : text + "\n";
  return withEnd.match(/[^\n]*\n/g) ?? [];
}

/**
 * Aider's SEARCH/REPLACE: the file read with universal newlines (written
 * back with LF), the search lines matched as whole lines, first exactly,
 * then ignoring a uniform leading-whitespace difference; the first match
 * is replaced.
 *
 * @param content The file now.
 * @param search The SEARCH text.
 * @param replace The REPLACE text.
 * @returns The new content.
 * @throws {Error} When the SEARCH lines are not found.
 */
export function aiderReplace(
  content: string,
  search: string,
  replace: string,
): string {
  const whole = keepEnds(content.replaceAll("\r\n", "\n"));
  const part = keepEnds(search);
  const repl = keepEnds(replace);
  const finalNewline = content === "" || content.endsWith("\n");
  const finish = (lines: string[]): string => {
    const s = lines.join("");
    return finalNewline || !s.endsWith("\n") ? s : s.slice(0, -1);
  };
  for (let i = 0; i + part.length <= whole.length; i++) {
    if (part.every((p, k) => p === whole[i + k])) {
      return finish([
        ...whole.slice(0, i),
        ...repl,
        ...whole.slice(i + part.length),
      ]);
    }
  }
  const nonBlank = [...part, ...repl].filter((l) => l.trim() !== "");
  const common = Math.min(...nonBlank.map((l) => indentOf(l).length));
  const strip = (l: string): string => (l.trim() === "" ? l : l.slice(common));
  const p2 = part.map(strip);
  const r2 = repl.map(strip);
  for (let i = 0; i + p2.length <= whole.length; i++) {
    const chunk = whole.slice(i, i + p2.length);
    if (!p2.every((p, k) => p.trimStart() === chunk[k].trimStart())) continue;
    const adds = new Set(
      chunk.filter((l) => l.trim() !== "").map((l, k) =>
        l.slice(0, l.length - p2.filter((x) => x.trim() !== "")[k].length)
      ),
    );
    if (adds.size !== 1) continue;
    const add = [...adds][0];
    const fresh = r2.map((l) => (l.trim() === "" ? l : add + l));
    return finish([
      ...whole.slice(0, i),
      ...fresh,
      ...whole.slice(i + p2.length),
    ]);
  }
  throw new Error(
    "SEARCH/REPLACE: the SEARCH block does not match lines of the file.",
  );
}
