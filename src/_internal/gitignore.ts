/**
 * `.gitignore` rules as git reads them (docs/workspace.md "Finding files"):
 * blank lines and `#` comments skipped, `!` re-includes, a trailing `/`
 * matches folders only, a pattern with a `/` before its end is anchored at
 * its file's folder and one without matches a name at any depth, `*` and
 * `?` stay within a name, `**` spans folders, `[…]` classes, `\` escapes,
 * unescaped trailing spaces dropped. The last rule that matches decides;
 * a file inside an ignored folder stays out whatever later rules say (the
 * walk never enters such a folder). Pure: the walk reads the files.
 *
 * @module
 */

/** One rule of a `.gitignore` file. */
export interface IgnoreRule {
  /** The folder of the file the rule comes from, root-relative (`""`: the root). */
  base: string;
  /** A `!` rule: matching paths are included again. */
  negate: boolean;
  /** A rule ending in `/`: it matches folders only. */
  dirOnly: boolean;
  /** The rule matches the path below `base` (else the last name alone). */
  anchored: boolean;
  /** The compiled pattern. */
  re: RegExp;
}

/**
 * Parses a `.gitignore` file.
 *
 * @param text The file's content.
 * @param base Its folder, root-relative with `/` separators (`""`: the root).
 * @returns Its rules, in order.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ignoredBy, parseGitignore } from "./gitignore.ts";
 * const rules = parseGitignore("# build output\ndist/\n*.log\n!keep.log\n/top.txt\n", "");
 * assert.equal(ignoredBy(rules, "dist", true), true);
 * assert.equal(ignoredBy(rules, "dist", false), false);
 * assert.equal(ignoredBy(rules, "src/app.log", false), true);
 * assert.equal(ignoredBy(rules, "src/keep.log", false), false);
 * assert.equal(ignoredBy(rules, "top.txt", false), true);
 * assert.equal(ignoredBy(rules, "src/top.txt", false), false);
 * ```
 */
export function parseGitignore(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = trimTrailingSpaces(raw);
    if (line === "" || line.startsWith("#")) continue;
    let negate = false;
    if (line.startsWith("!")) {
      negate = true;
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith("/") && !line.endsWith("\\/")) {
      dirOnly = true;
      line = line.replace(/\/+$/, "");
    }
    if (line === "") continue;
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    rules.push({ base, negate, dirOnly, anchored, re: compile(line) });
  }
  return rules;
}

/**
 * Whether the rules, in order, leave a path ignored: the last rule that
 * matches decides, and no match means not ignored.
 *
 * @param rules Rules of every `.gitignore` from the root down to the path's folder, outermost first.
 * @param path Root-relative path with `/` separators.
 * @param isDir Whether the path names a folder.
 * @returns True when the path is ignored.
 */
export function ignoredBy(
  rules: readonly IgnoreRule[],
  path: string,
  isDir: boolean,
): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  for (let i = rules.length - 1; i >= 0; i--) {
    const r = rules[i];
    if (r.dirOnly && !isDir) continue;
    if (r.base !== "" && !path.startsWith(r.base + "/")) continue;
    const rel = r.base === "" ? path : path.slice(r.base.length + 1);
    if (r.re.test(r.anchored ? rel : name)) return !r.negate;
  }
  return false;
}

/** Drops trailing spaces unless a `\` escapes them. */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === " " || line[end - 1] === "\t")) {
    if (line[end - 2] === "\\") break;
    end--;
  }
  return line.slice(0, end);
}

/** A pattern as one regular expression over the whole (relative) path. */
function compile(pattern: string): RegExp {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*" && pattern[i + 1] === "*") {
      const atStart = i === 0 || pattern[i - 1] === "/";
      const next = pattern[i + 2];
      if (atStart && next === "/") {
        out += "(?:.*/)?";
        i += 2;
        continue;
      }
      if (atStart && next === undefined) {
        out += ".*";
        i += 1;
        continue;
      }
      out += "[^/]*";
      i += 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "\\" && i + 1 < pattern.length) {
      out += escapeChar(pattern[++i]);
    } else if (c === "[") {
      const end = classEnd(pattern, i);
      if (end < 0) out += "\\[";
      else {
        let body = pattern.slice(i + 1, end);
        let negate = false;
        if (body.startsWith("!") || body.startsWith("^")) {
          negate = true;
          body = body.slice(1);
        }
        out += `[${negate ? "^" : ""}${
          body.replace(/\\(.)/g, "$1").replace(/[\\\]^]/g, "\\$&")
        }]`;
        i = end;
      }
    } else out += escapeChar(c);
  }
  return new RegExp(`^${out}$`, "u");
}

/** Where the `[…]` class opened at `open` closes, or -1. */
function classEnd(pattern: string, open: number): number {
  let i = open + 1;
  if (pattern[i] === "!" || pattern[i] === "^") i++;
  if (pattern[i] === "]") i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === "\\") i++;
    else if (pattern[i] === "]") return i;
  }
  return -1;
}

function escapeChar(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
