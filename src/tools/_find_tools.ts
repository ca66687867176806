/**
 * The finding tools of the `files` set: `list_files` and `search_files`,
 * over the workspace's `list` and `search` (docs/workspace.md "Finding
 * files"). A search's lines count as read, so `edit_file` can name them
 * without a `read_file` first.
 *
 * @module
 */
import { z } from "zod";
import type { Workspace } from "../workspace/mod.ts";
import { defineTool, READ_ONLY } from "./_define.ts";
import { DESCRIPTIONS } from "./_prompts.ts";
import { plainLines } from "./_text.ts";
import { ListFilesInputSchema, SearchFilesInputSchema } from "./inputs.ts";
import type { EditFormat, ToolCallOptions, ToolDefinition } from "./types.ts";

const ListOutput = z.object({
  paths: z.array(z.string()).describe("Root-relative paths, at most 1,000."),
  total: z.number().int().describe("Files that matched, shown or not."),
});

const SearchOutput = z.object({
  files: z.array(z.object({
    path: z.string(),
    lines: z.array(z.number().int()).describe("Line numbers shown."),
  })),
  shown: z.number().int().describe("Matching lines shown (at most 200)."),
  more: z.number().int().describe("Matching lines not shown."),
  binary: z.number().int().describe("Binary files skipped."),
  tooLarge: z.number().int().describe("Files over 1 MiB skipped."),
  warnings: z.array(z.string()).optional(),
});

/** What the finding tools need. */
export interface FindToolOptions {
  workspace: () => Promise<Workspace>;
  editFormat: EditFormat;
  sessionOf: (call?: ToolCallOptions) => string;
}

/** `list_files` and `search_files`. */
export function findTools(options: FindToolOptions): ToolDefinition[] {
  const { workspace: ws, editFormat, sessionOf } = options;
  const list = defineTool({
    name: "list_files",
    title: "List files",
    description: DESCRIPTIONS.list,
    input: ListFilesInputSchema,
    output: ListOutput,
    annotations: READ_ONLY,
    run: async (input) => {
      const found = await (await ws()).list({ glob: input.glob });
      return {
        text: found.text,
        data: { paths: found.paths, total: found.total },
      };
    },
  }, sessionOf);
  const search = defineTool({
    name: "search_files",
    title: "Search files",
    description: editFormat === "hashline"
      ? DESCRIPTIONS.searchHashline
      : DESCRIPTIONS.searchPlain,
    input: SearchFilesInputSchema,
    output: SearchOutput,
    annotations: READ_ONLY,
    run: async (input, session) => {
      const found = await (await ws()).search({
        pattern: input.pattern,
        glob: input.glob,
        session,
      });
      const { text, ...data } = found;
      return {
        text: editFormat === "hashline" ? text : plainLines(text),
        data,
      };
    },
  }, sessionOf);
  return [list, search];
}
