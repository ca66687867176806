/**
 * The shapes in which a patch may arrive at a tool or a route — `{ path, ops }`,
 * `{ files }`, or `{ patch }` (text or JSON form) — turned into one patch.
 *
 * @module
 */
import { parsePatch } from "../patch/parse.ts";
import { type FileEntry, toFilePatch } from "../patch/schema.ts";
import type { EntryOp, Patch, PatchOp } from "../patch/types.ts";

/** A patch in any of the accepted shapes. */
export interface PatchInput {
  path?: string;
  ops?: EntryOp[];
  files?: FileEntry[];
  patch?: unknown;
}

/**
 * Builds the patch, naming the fields in every refusal.
 *
 * @param input The request or tool input.
 * @param what Who asks (`edit_file`, `request body`), for messages.
 * @throws {TypeError} None or several shapes given, or ops without a path.
 * @throws {SyntaxError} A text patch that cannot be parsed.
 */
export function patchFromInput(input: PatchInput, what: string): Patch {
  const shapes =
    [input.ops, input.files, input.patch].filter((v) => v !== undefined).length;
  if (shapes !== 1) {
    throw new TypeError(
      `${what} needs exactly one of: field "ops" with field "path" (one file), field "files" (several files), or field "patch" (text or JSON form).`,
    );
  }
  if (input.ops !== undefined) {
    if (input.path === undefined) {
      throw new TypeError(
        `Field "path" is required with field "ops": name the file the ops apply to.`,
      );
    }
    return { files: [toFilePatch({ path: input.path, ops: input.ops })] };
  }
  if (input.files !== undefined) {
    return { files: input.files.map(toFilePatch) };
  }
  if (
    typeof input.patch !== "string" &&
    (input.patch === null || typeof input.patch !== "object")
  ) {
    throw new TypeError(
      `Field "patch" must be the text form (a string) or the JSON form (an object), got ${
        input.patch === null ? "null" : typeof input.patch
      }.`,
    );
  }
  const patch = parsePatch(input.patch, {
    headerless: input.path !== undefined,
  });
  // A dialect text names its own files; the workspace compiles it.
  if (patch.dialect) return patch;
  const files = patch.files.map((f) =>
    f.path === "" && input.path ? { ...f, path: input.path } : f
  );
  if (files.some((f) => f.path === "")) {
    throw new TypeError(
      `Field "patch" has ops before any "@@ PATH" line: start the patch with "@@ PATH", or give field "path".`,
    );
  }
  return { files };
}

/**
 * The patch of one revision: exactly one of `ops` (an array of ops) or
 * `patch` (the text or JSON form; no `@@ PATH` needed: a revision is one
 * source).
 *
 * @param input The request or tool input.
 * @param what Who asks (`source_patch`, `Request body`), for messages.
 * @throws {TypeError} None or both given.
 * @throws {SyntaxError} A text patch that cannot be parsed.
 */
export function revisionPatchFrom(
  input: { ops?: PatchOp[]; patch?: unknown },
  what: string,
): PatchOp[] | Patch {
  if ((input.ops === undefined) === (input.patch === undefined)) {
    throw new TypeError(
      `${what} needs exactly one of field "ops" (an array of ops) or field "patch" (the text form).`,
    );
  }
  return input.ops ??
    parsePatch(input.patch as string | object, { headerless: true });
}
