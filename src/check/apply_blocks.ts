/**
 * Block anchors on content in memory: {@link applyBlockPatch} is
 * `applyPatch` that first resolves `LINE:HH*` anchors on the content, with
 * the grammar its path names (loaded on first use).
 *
 * @module
 */
import { splitLines } from "../anchor/split.ts";
import type { Checker } from "./checker.ts";
import { applyPatch, type EditOptions } from "../patch/apply.ts";
import { parsePatch } from "../patch/parse.ts";
import { refuseFileParts } from "../patch/one_content.ts";
import { refusal } from "../patch/problems.ts";
import type { Patch, PatchOp } from "../patch/types.ts";
import {
  type BlockSource,
  expandBlocks,
  hasBlockAnchors,
} from "../block/expand.ts";
import { isMarkdown } from "../block/markdown.ts";

let checker: Promise<Checker> | undefined;

/**
 * The structure of content for block anchors: Markdown needs no grammar;
 * other content is parsed with the grammar of its path's extension.
 *
 * @param path The file's path (its extension picks the grammar).
 * @param content The content.
 * @returns The tree's root (`null` for Markdown), or why there is none.
 */
export async function structureOf(
  path: string,
  content: string,
): Promise<BlockSource> {
  if (isMarkdown(path)) return { kind: "tree", root: null };
  const c =
    await (checker ??= import("./checker.ts").then((m) => m.createChecker()));
  return c.structure
    ? await c.structure(path, content)
    : { kind: "none", reason: "the checker in use parses no trees" };
}

/**
 * Applies a patch to content, block anchors (`12:a3*`) included: each is
 * resolved on `content` by the grammar that `options.path` names, as a
 * workspace patch resolves it (docs/patch-format.md, "Block anchors").
 *
 * @param content The content the patch was addressed against.
 * @param patch Ops, a one-file patch, or patch text (the `@@ PATH` line may be left out).
 * @param options As for `applyPatch`; `path` picks the grammar (its extension).
 * @returns The new content.
 * @throws {PatchRefusedError} `NOT_A_BLOCK`, `NOT_READ` (with `memory`) and every other refusal of `applyPatch`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyBlockPatch } from "./apply_blocks.ts";
 * const md = "# A\nx\n# B\n";
 * assert.equal(await applyBlockPatch(md, "- 1:c8*", { path: "a.md" }), "# B\n");
 * ```
 */
export async function applyBlockPatch(
  content: string,
  patch: PatchOp[] | Patch | string,
  options: EditOptions = {},
): Promise<string> {
  const parsed = Array.isArray(patch)
    ? { files: [{ path: "", ops: patch }] }
    : parsePatch(patch, { headerless: true });
  if (parsed.files.length !== 1) return applyPatch(content, patch, options);
  refuseFileParts(
    parsed,
    "the content given",
    "a workspace's patch (openWorkspace(root).patch)",
  );
  const file = parsed.files[0];
  const path = options.path ?? file.path;
  if (!hasBlockAnchors(file.ops)) return applyPatch(content, file.ops, options);
  const out = expandBlocks(
    file.ops,
    splitLines(content).lines,
    await structureOf(path, content),
    options.memory,
    path,
    { rebase: options.rebase },
  );
  if (out.problems.length > 0) throw refusal(out.problems);
  return applyPatch(content, out.ops, options);
}
