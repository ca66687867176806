/**
 * What only patches and writes need (the patch schema, the in-memory
 * editor, diffs), loaded on first use so a read starts fast.
 *
 * @module
 */
export { editIndexed } from "../patch/apply.ts";
export { parsePatch } from "../patch/parse.ts";
export { summarizeEdit } from "../result/edit.ts";
