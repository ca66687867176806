/**
 * The `history` tool set: `edit_history` (list entries, or show one with
 * its diff) and `undo_edit` (revert one entry, or preview it). Both go
 * through the workspace's own history; their definitions are kept short,
 * since a model is sent them with every request.
 *
 * @module
 */
import { z } from "zod";
import type { Workspace } from "../workspace/mod.ts";
import { defineTool, EDITS_FILES, READ_ONLY } from "./_define.ts";
import type { ToolCallOptions, ToolDefinition } from "./types.ts";

const id = z.string().describe("Entry id, h_N");

const HistoryInput = z.object({
  id: id.optional(),
  path: z.string().optional(),
  limit: z.number().int().min(1).optional(),
});

const UndoInput = z.object({
  id,
  dryRun: z.boolean().optional(),
});

const file = z.object({
  path: z.string(),
  added: z.number().int(),
  removed: z.number().int(),
  created: z.boolean().optional(),
  deleted: z.boolean().optional(),
  renamedFrom: z.string().optional(),
  diff: z.string().optional(),
});

const entry = z.object({
  id: z.string(),
  time: z.string(),
  session: z.string(),
  door: z.string(),
  summary: z.string(),
  files: z.array(file),
  undoOf: z.string().optional(),
});

const HistoryOutput = z.object({
  entries: z.array(entry).optional().describe("Newest first (without id)."),
  entry: entry.optional().describe("The entry with diffs (with id)."),
  warnings: z.array(z.string()).optional().describe(
    "Malformed history records skipped, each named.",
  ),
});

const UndoOutput = z.object({
  id: z.string().nullable().describe("The undo's own entry (null on dryRun)."),
  undoOf: z.string(),
  dryRun: z.boolean(),
  files: z.array(file),
});

/** What the history tools need. */
export interface HistoryToolOptions {
  workspace: () => Promise<Workspace>;
  sessionOf: (call?: ToolCallOptions) => string;
}

/** `edit_history` and `undo_edit`. */
export function historyTools(options: HistoryToolOptions): ToolDefinition[] {
  const { workspace: ws, sessionOf } = options;
  const list = defineTool({
    name: "edit_history",
    title: "Edit history",
    description:
      "List committed edits, newest first (id, time, session, files +added -removed); with id, show that edit's diff.",
    input: HistoryInput,
    output: HistoryOutput,
    annotations: READ_ONLY,
    run: async (input) => {
      const w = await ws();
      if (input.id !== undefined) {
        const e = await w.entry(input.id);
        return {
          text: [
            `${e.id} ${e.time} ${e.session} ${e.door}`,
            e.summary,
            ...e.files.map((f) => f.diff),
          ].join("\n"),
          data: { entry: e },
        };
      }
      const entries = await w.history({ path: input.path, limit: input.limit });
      const text = entries.map((e) =>
        `${e.id} ${e.time} ${e.session} ${e.door} ${
          e.files.map((f) =>
            `${f.path}${
              f.created
                ? " (created)"
                : f.deleted
                ? " (deleted)"
                : f.renamedFrom !== undefined
                ? ` (renamed from ${f.renamedFrom})`
                : ""
            } +${f.added} -${f.removed}`
          ).join(", ")
        }${e.undoOf ? ` (undo of ${e.undoOf})` : ""}`
      ).join("\n");
      const warnings = entries.warnings;
      return {
        text: [text || "(no entries)", ...(warnings ?? [])].join("\n"),
        data: { entries, ...(warnings ? { warnings } : {}) },
      };
    },
  }, sessionOf);
  const undo = defineTool({
    name: "undo_edit",
    title: "Undo edit",
    description:
      "Revert one edit by id, all or nothing, keeping later changes to other lines. Refused (MOVED_ON) if its lines changed since. dryRun: show the diff only.",
    input: UndoInput,
    output: UndoOutput,
    annotations: EDITS_FILES,
    run: async (input, session) => {
      // An agent's undo is an edit: its session must have read the lines.
      const result = await (await ws()).undo(input.id, {
        dryRun: input.dryRun ?? false,
        session,
        requireRead: true,
      });
      return { text: result.summary, data: result };
    },
  }, sessionOf);
  return [list, undo];
}
