/**
 * `deny` globs, matched in time linear in the path's length: a path is
 * split into its names once, `**` matches whole names and every other
 * token matches within one name (at most 255 bytes), each level with the
 * greedy one-star backtrack, which never revisits more than one position.
 * Both the globs and the paths are compared folded (NFC, case folded), so a
 * rule holds on case-insensitive and normalizing file systems.
 *
 * The syntax is the usual one (as picomatch with `dot: true` reads it):
 * `*` any run within a name (dot files included), `?` one character, `[a-z]`
 * / `[!a]` / `[^a]` classes, `{a,b}` alternatives, `**` any number of whole
 * names (zero included, so `dir/**` also matches `dir`), `\` escapes, a
 * leading `./` is ignored and a leading `!` negates.
 *
 * @module
 */
import { foldName } from "./names.ts";

type Token =
  | { kind: "char"; ch: string }
  | { kind: "one" }
  | { kind: "star" }
  | { kind: "class"; negate: boolean; ranges: [string, string][] };

type Segment = { kind: "globstar" } | { kind: "name"; tokens: Token[] };

interface Compiled {
  negate: boolean;
  segments: Segment[];
}

/**
 * Checks a `deny` option: a list of non-empty glob strings (or nothing).
 *
 * @param deny The option as given.
 * @param who What the option belongs to, starting the message (`"Cannot open workspace"`).
 * @returns The globs (an empty list when none were given).
 * @throws {TypeError} When it is not such a list.
 */
export function denyGlobs(deny: unknown, who: string): readonly string[] {
  if (deny === undefined) return [];
  if (
    !Array.isArray(deny) ||
    deny.some((g) => typeof g !== "string" || g === "")
  ) {
    throw new TypeError(
      `${who}: deny must be a list of non-empty glob strings.`,
    );
  }
  return deny;
}

/** Alternatives one glob may expand to through `{a,b}`. */
const MAX_EXPANSIONS = 1024;

/**
 * Compiles globs into one predicate over `/`-separated relative paths: true
 * when any glob matches (a `!glob` matches every path it does not).
 *
 * @param globs The globs.
 * @param what What the globs are, for the message (default `"deny glob"`).
 * @throws {TypeError} When a glob expands to too many alternatives.
 */
export function compileGlobs(
  globs: readonly string[],
  what = "deny glob",
): (path: string) => boolean {
  const compiled: Compiled[] = [];
  for (const glob of globs) {
    let g = foldName(glob);
    let negate = false;
    if (g.startsWith("!") && g.length > 1) {
      negate = true;
      g = g.slice(1);
    }
    for (const alt of expandBraces(g, what)) {
      compiled.push({ negate, segments: parseSegments(alt) });
    }
  }
  return (path: string) => {
    const names = foldName(path).split("/");
    for (const c of compiled) {
      if (matchSegments(c.segments, names) !== c.negate) return true;
    }
    return false;
  };
}

function expandBraces(glob: string, what: string): string[] {
  const out: string[] = [];
  const pending = [glob];
  while (pending.length > 0) {
    const g = pending.pop()!;
    const group = firstGroup(g);
    if (group === null) {
      out.push(g);
    } else {
      const [open, close, commas] = group;
      let from = open + 1;
      for (const at of [...commas, close]) {
        pending.push(g.slice(0, open) + g.slice(from, at) + g.slice(close + 1));
        from = at + 1;
      }
    }
    if (out.length + pending.length > MAX_EXPANSIONS) {
      throw new TypeError(
        `Cannot use the ${what} "${glob}": its {…} alternatives expand to over ${MAX_EXPANSIONS} globs.`,
      );
    }
  }
  return out;
}

/** The first `{…}` with a top-level comma: its bounds and commas. */
function firstGroup(g: string): [number, number, number[]] | null {
  for (let open = 0; open < g.length; open++) {
    if (g[open] === "\\") {
      open++;
      continue;
    }
    if (g[open] !== "{") continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = open + 1; i < g.length; i++) {
      const c = g[i];
      if (c === "\\") i++;
      else if (c === "{") depth++;
      else if (c === "}") {
        if (depth === 0) {
          if (commas.length > 0) return [open, i, commas];
          break;
        }
        depth--;
      } else if (c === "," && depth === 0) commas.push(i);
    }
  }
  return null;
}

function parseSegments(glob: string): Segment[] {
  let g = glob;
  while (g.startsWith("./")) g = g.slice(2);
  const segments: Segment[] = [];
  for (const part of splitUnescaped(g)) {
    if (part === "**") {
      if (segments[segments.length - 1]?.kind !== "globstar") {
        segments.push({ kind: "globstar" });
      }
    } else segments.push({ kind: "name", tokens: parseName(part) });
  }
  return segments;
}

function splitUnescaped(g: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < g.length; i++) {
    if (g[i] === "\\") i++;
    else if (g[i] === "/") {
      parts.push(g.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(g.slice(from));
  return parts;
}

function parseName(part: string): Token[] {
  const chars = Array.from(part);
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === "\\" && i + 1 < chars.length) {
      tokens.push({ kind: "char", ch: chars[++i] });
    } else if (c === "*") {
      if (tokens[tokens.length - 1]?.kind !== "star") {
        tokens.push({ kind: "star" });
      }
    } else if (c === "?") tokens.push({ kind: "one" });
    else if (c === "[") {
      const parsed = parseClass(chars, i);
      if (parsed === null) tokens.push({ kind: "char", ch: c });
      else {
        tokens.push(parsed.token);
        i = parsed.end;
      }
    } else tokens.push({ kind: "char", ch: c });
  }
  return tokens;
}

function parseClass(
  chars: string[],
  open: number,
): { token: Token; end: number } | null {
  let i = open + 1;
  let negate = false;
  if (chars[i] === "!" || chars[i] === "^") {
    negate = true;
    i++;
  }
  const ranges: [string, string][] = [];
  let first = true;
  for (; i < chars.length; i++) {
    let c = chars[i];
    if (c === "]" && !first) {
      return { token: { kind: "class", negate, ranges }, end: i };
    }
    first = false;
    if (c === "\\" && i + 1 < chars.length) c = chars[++i];
    if (chars[i + 1] === "-" && i + 2 < chars.length && chars[i + 2] !== "]") {
      let hi = chars[i + 2];
      i += 2;
      if (hi === "\\" && i + 1 < chars.length) hi = chars[++i];
      ranges.push([c, hi]);
    } else ranges.push([c, c]);
  }
  return null;
}

function tokenMatches(t: Token, ch: string): boolean {
  switch (t.kind) {
    case "char":
      return t.ch === ch;
    case "one":
      return true;
    case "class": {
      const cp = ch.codePointAt(0)!;
      const hit = t.ranges.some(([lo, hi]) =>
        cp >= lo.codePointAt(0)! && cp <= hi.codePointAt(0)!
      );
      return hit !== t.negate;
    }
    case "star":
      return false;
  }
}

/** One name against one name pattern: greedy, backtracking only to the last `*`. */
function matchName(tokens: Token[], name: string): boolean {
  const chars = Array.from(name);
  let t = 0;
  let c = 0;
  let starT = -1;
  let starC = 0;
  while (c < chars.length) {
    if (t < tokens.length && tokens[t].kind === "star") {
      starT = t++;
      starC = c;
    } else if (t < tokens.length && tokenMatches(tokens[t], chars[c])) {
      t++;
      c++;
    } else if (starT >= 0) {
      t = starT + 1;
      c = ++starC;
    } else return false;
  }
  while (t < tokens.length && tokens[t].kind === "star") t++;
  return t === tokens.length;
}

/** Names against segments: the same greedy walk, `**` standing for any run of names. */
function matchSegments(segments: Segment[], names: string[]): boolean {
  let s = 0;
  let n = 0;
  let starS = -1;
  let starN = 0;
  while (n < names.length) {
    const seg = segments[s];
    if (seg?.kind === "globstar") {
      starS = s++;
      starN = n;
    } else if (seg?.kind === "name" && matchName(seg.tokens, names[n])) {
      s++;
      n++;
    } else if (starS >= 0) {
      s = starS + 1;
      n = ++starN;
    } else return false;
  }
  while (s < segments.length && segments[s].kind === "globstar") s++;
  return s === segments.length;
}
