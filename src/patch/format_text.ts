/**
 * Writing a patch back in the compact text form
 * (docs/patch-format.md#text-form), each op's symbol taken from the op table.
 *
 * @module
 */
import { readPrefixOf } from "../anchor/anchor.ts";
import { anchorsOf, rowOf, takesLines } from "./ops.ts";
import type { FilePatch, MoveOp, Patch, PatchOp } from "./types.ts";

/**
 * Writes a patch in the compact text form; {@link parsePatch} reads it back
 * to the same patch. A single file with path `""` is written without `@@`
 * (read it back with `headerless: true`). The text form has no `literal`
 * flag: an op that needs it is refused here.
 *
 * @param patch A patch, one file's patch, or a bare list of ops.
 * @returns The text form, ending with a newline (`""` for no ops).
 * @throws {TypeError} When a new line holds a line break or ends with `\r`,
 *   a `literal` op holds a line starting with a read prefix, or a file other
 *   than the first has an empty path — the text form cannot carry those.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatPatchText } from "./format_text.ts";
 * import { parsePatch } from "./parse.ts";
 * const text = formatPatchText({ files: [{ path: "a.txt", ops: [
 *   { op: "insert_after", anchor: "3:0e", lines: ["// note"] },
 *   { op: "append", lines: ["end"] },
 * ] }] });
 * assert.equal(text, "@@ a.txt\n+ 3:0e\n~// note\n+\n~end\n");
 * assert.deepEqual(parsePatch(text).files[0].ops[1], { op: "append", lines: ["end"] });
 * ```
 */
export function formatPatchText(patch: Patch | FilePatch | PatchOp[]): string {
  const files: FilePatch[] = Array.isArray(patch)
    ? [{ path: "", ops: patch }]
    : "files" in patch
    ? patch.files
    : [patch];
  const out: string[] = [];
  files.forEach((file, i) => {
    if (file.path !== "" || i > 0) {
      if (file.path.trim() === "" || /[\r\n]/.test(file.path)) {
        throw new TypeError(
          `Cannot write patch text: file ${i + 1} has path ${
            JSON.stringify(file.path)
          }, which "@@ PATH" cannot carry.`,
        );
      }
      const head = file.create ? "@@+" : file.delete ? "@@-" : "@@";
      out.push(
        `${head} ${file.path}${
          file.rename !== undefined ? ` -> ${file.rename}` : ""
        }`,
      );
    }
    for (const op of file.ops) {
      const anchors = anchorsOf(op);
      out.push(
        `${rowOf(op).text}${anchors.length ? ` ${anchors.join("..")}` : ""}`,
      );
      if (takesLines(op)) {
        for (const line of op.lines) {
          if (line.includes("\n") || line.endsWith("\r")) {
            throw new TypeError(
              `Cannot write patch text: the new line ${
                JSON.stringify(line.slice(0, 40))
              } holds a line break; give each line as its own entry.`,
            );
          }
          if (op.literal === true && readPrefixOf(line)) {
            throw new TypeError(
              `Cannot write patch text: the new line ${
                JSON.stringify(line.slice(0, 40))
              } starts with a read prefix, which only the JSON form's "literal": true can carry.`,
            );
          }
          out.push(`~${line}`);
        }
      }
    }
    for (const mv of file.moves ?? []) out.push(moveText(mv));
  });
  return out.length ? `${out.join("\n")}\n` : "";
}

function moveText(mv: MoveOp): string {
  const source = `${mv.start}${mv.end ? `..${mv.end}` : ""}`;
  const at = mv.after ?? mv.before;
  const side = mv.before !== undefined ? "<" : ">";
  const dest = mv.to !== undefined
    ? at !== undefined ? `${mv.to}:${at}` : mv.to
    : at ?? "";
  return `${rowOf(mv).text} ${source} ${side} ${dest}`;
}
