/**
 * A dialect patch applied to one content given by the caller (`applyPatch`,
 * `POST /v1/apply`): the view its hunks are located in is the session's
 * read record when one is given, else the whole content
 * (docs/patch-format.md#other-dialects).
 *
 * @module
 */
import { splitLines } from "../../anchor/split.ts";
import { lineHash32 } from "../../hash/fnv.ts";
import { lookupFromLines } from "../lookup.ts";
import { memoryFromHashes } from "../memory.ts";
import { refuseFileParts } from "../one_content.ts";
import { refusal } from "../problems.ts";
import type { PatchOp, ReadMemory } from "../types.ts";
import { compileDialect, type SessionView } from "./compile.ts";
import type { DialectPatch } from "./types.ts";

/** A read record as a view: its lines as last shown, one by one when it lists none. */
function viewOfMemory(memory: ReadMemory): SessionView {
  if (memory.entries) {
    return {
      hash32: (n) => memory.hash32(n),
      entries: () => memory.entries!(),
      lineCount: memory.lineCount,
    };
  }
  const count = memory.lineCount ?? 0;
  return {
    hash32: (n) => memory.hash32(n),
    *entries() {
      for (let n = 1; n <= count; n++) {
        const h = memory.hash32(n);
        if (h !== undefined) yield [n, h];
      }
    },
    lineCount: memory.lineCount,
  };
}

/**
 * Compiles a dialect patch of one file into ops on `content`.
 *
 * @param content The content the patch is applied to.
 * @param dialect The parsed dialect patch (one updated file).
 * @param memory The session's read record, when the call has one.
 * @returns The ops, anchored to the view.
 * @throws {PatchRefusedError} A hunk not found, found twice, or over lines not read.
 * @throws {TypeError} Several files, or a file added, deleted or moved.
 */
export function dialectOps(
  content: string,
  dialect: DialectPatch,
  memory?: ReadMemory,
): PatchOp[] {
  if (dialect.files.length !== 1) {
    throw new TypeError(
      `Cannot apply a patch naming ${dialect.files.length} files to one content: send the hunks of one file.`,
    );
  }
  const lines = splitLines(content).lines;
  const now = lookupFromLines(lines);
  let view: SessionView;
  if (memory) view = viewOfMemory(memory);
  else {
    const whole = memoryFromHashes(lines.map(lineHash32));
    whole.lineCount = lines.length;
    view = whole;
  }
  const out = compileDialect(dialect, (path) => ({ display: path, view, now }));
  if (out.problems.length > 0) throw refusal(out.problems);
  refuseFileParts(
    out.patch,
    "the content given",
    "a workspace's patch (openWorkspace(root).patch)",
  );
  return out.patch.files[0].ops;
}
