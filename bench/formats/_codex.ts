/**
 * Codex's `apply_patch` semantics for one `*** Update File` section, written
 * from its documented behaviour: each chunk's old lines (context and
 * removals) are sought from the current position — after the `@@ line`
 * header when there is one — comparing lines exactly, then with trailing
 * whitespace ignored, then with both ends trimmed; the first match wins.
 * The result always ends with a newline.
 *
 * @module
 */

interface Chunk {
  header: string | undefined;
  old: string[];
  fresh: string[];
}

function parse(patch: string): Chunk[] {
  const lines = patch.replace(/\n$/, "").split("\n");
  if (lines[0] !== "*** Begin Patch" || lines.at(-1) !== "*** End Patch") {
    throw new SyntaxError(
      "apply_patch: the patch must start with `*** Begin Patch` and end with `*** End Patch`.",
    );
  }
  if (!lines[1]?.startsWith("*** Update File: ")) {
    throw new SyntaxError("apply_patch: expected `*** Update File: PATH`.");
  }
  const chunks: Chunk[] = [];
  for (const line of lines.slice(2, -1)) {
    if (line.startsWith("@@")) {
      const h = line.slice(2).trim();
      chunks.push({ header: h === "" ? undefined : h, old: [], fresh: [] });
      continue;
    }
    const c = chunks.at(-1);
    if (!c) {
      throw new SyntaxError("apply_patch: a change line before any `@@`.");
    }
    const body = line.slice(1);
    if (line[0] === " " || line === "") {
      c.old.push(body);
      c.fresh.push(body);
    } else if (line[0] === "-") c.old.push(body);
    else if (line[0] === "+") c.fresh.push(body);
    else {throw new SyntaxError(
        `apply_patch: cannot read the line ${JSON.stringify(line)}.`,
      );}
  }
  return chunks;
}

const PASSES: ((s: string) => string)[] = [
  (s) => s,
  (s) => s.trimEnd(),
  (s) => s.trim(),
];

function seek(
  lines: readonly string[],
  pattern: readonly string[],
  from: number,
): number {
  if (pattern.length === 0) return from;
  for (const norm of PASSES) {
    const want = pattern.map(norm);
    for (let i = from; i + pattern.length <= lines.length; i++) {
      let ok = true;
      for (let k = 0; k < want.length && ok; k++) {
        ok = norm(lines[i + k]) === want[k];
      }
      if (ok) return i;
    }
  }
  return -1;
}

/**
 * Applies a Codex patch to a file's content.
 *
 * @param content The file now.
 * @param patch The `*** Begin Patch` envelope with one update.
 * @returns The new content.
 * @throws {Error} When a chunk's lines (or its header) are not found.
 */
export function applyCodexPatch(content: string, patch: string): string {
  const lines = content.split("\n");
  if (lines.at(-1) === "") lines.pop();
  let at = 0;
  const edits: [number, number, string[]][] = [];
  for (const chunk of parse(patch)) {
    if (chunk.header !== undefined) {
      const h = seek(lines, [chunk.header], at);
      if (h < 0) {
        throw new Error(`apply_patch: context line not found: ${chunk.header}`);
      }
      at = h + 1;
    }
    const found = seek(lines, chunk.old, at);
    if (found < 0) {
      throw new Error("apply_patch: the chunk's lines were not found.");
    }
    edits.push([found, chunk.old.length, chunk.fresh]);
    at = found + chunk.old.length;
  }
  for (const [i, n, fresh] of edits.reverse()) lines.splice(i, n, ...fresh);
  return lines.join("\n") + "\n";
}
