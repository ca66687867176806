/**
 * The workspace tools: `read_file`, `edit_file` (hashline patch or exact
 * string replacement) and `write_file`. Every one goes through the
 * workspace's own operations; none touches the disk itself.
 *
 * @module
 */
import type { Workspace } from "../workspace/mod.ts";
import { defineTool, EDITS_FILES, READ_ONLY } from "./_define.ts";
import {
  HashlineEditInputSchema,
  ReadFileInputSchema,
  StrReplaceEditInputSchema,
  WriteFileInputSchema,
} from "./inputs.ts";
import {
  PatchOutput,
  ReadFileOutput,
  StrReplaceOutput,
  WriteOutput,
} from "./_outputs.ts";
import { patchFromInput } from "./patch_input.ts";
import { DESCRIPTIONS } from "./_prompts.ts";
import { patchText, plainLines, readFooter } from "./_text.ts";
import { strReplaceInWorkspace } from "./str_replace.ts";
import type { CheckMode } from "../check/mod.ts";
import type { EditFormat, ToolCallOptions, ToolDefinition } from "./types.ts";

/** The line naming a change's history entry, so an agent can undo it without listing history. */
function entryNote(result: { entry?: string; summary: string }): string {
  return result.entry && !result.summary.includes(result.entry)
    ? `\n\nHistory entry: ${result.entry}.`
    : "";
}

/** What the file tools need. */
export interface FileToolOptions {
  workspace: () => Promise<Workspace>;
  editFormat: EditFormat;
  rebase: boolean;
  /** Default read form of `read_file` (a call's own `anchors` wins). */
  anchors?: "hash" | "lean";
  /** Default syntax check (else the workspace's); a call's own `check` wins. */
  check?: CheckMode;
  sessionOf: (call?: ToolCallOptions) => string;
}

/** `read_file`, `edit_file`, `write_file`. */
export function fileTools(options: FileToolOptions): ToolDefinition[] {
  const { workspace: ws, editFormat, sessionOf } = options;
  const read = defineTool({
    name: "read_file",
    title: "Read file",
    description: editFormat !== "hashline"
      ? DESCRIPTIONS.readPlain
      : options.anchors === "lean"
      ? DESCRIPTIONS.readLean
      : DESCRIPTIONS.readHashline,
    input: ReadFileInputSchema,
    output: ReadFileOutput,
    annotations: READ_ONLY,
    run: async (input, session) => {
      const view = await (await ws()).read(input.path, {
        offset: input.offset,
        limit: input.limit,
        session,
        ...(input.outline === true ? { outline: true } : {}),
        ...(editFormat === "hashline"
          ? { anchors: input.anchors ?? options.anchors }
          : {}),
      });
      const body = editFormat === "hashline"
        ? view.text
        : plainLines(view.text);
      const head = view.note ? `(${view.note}.)\n` : "";
      return {
        text: head + body + readFooter(view, "read_file"),
        data: view,
      };
    },
  }, sessionOf);

  const edit = editFormat === "hashline"
    ? defineTool({
      name: "edit_file",
      title: "Edit file by anchors",
      description: DESCRIPTIONS.editHashline,
      input: HashlineEditInputSchema,
      output: PatchOutput,
      annotations: EDITS_FILES,
      run: async (input, session) => {
        const patch = patchFromInput(input, "edit_file");
        const outcome = await (await ws()).patch(patch, {
          dryRun: input.dryRun ?? false,
          rebase: input.rebase ?? options.rebase,
          check: input.check ?? options.check,
          session,
        });
        return { text: patchText(outcome) + entryNote(outcome), data: outcome };
      },
    }, sessionOf)
    : defineTool({
      name: "edit_file",
      title: "Edit file by string replacement",
      description: DESCRIPTIONS.editStrReplace,
      input: StrReplaceEditInputSchema,
      output: StrReplaceOutput,
      annotations: EDITS_FILES,
      run: async (input, session) => {
        const outcome = await strReplaceInWorkspace(await ws(), {
          path: input.path,
          oldString: input.old_string,
          newString: input.new_string,
          replaceAll: input.replace_all ?? false,
          check: input.check ?? options.check,
          session,
        });
        return { text: outcome.summary + entryNote(outcome), data: outcome };
      },
    }, sessionOf);

  const write = defineTool({
    name: "write_file",
    title: "Write whole file",
    description: DESCRIPTIONS.write,
    input: WriteFileInputSchema,
    output: WriteOutput,
    // Writing the same content twice leaves the same file.
    annotations: { ...EDITS_FILES, idempotentHint: true },
    run: async (input, session) => {
      const result = await (await ws()).write(input.path, input.content, {
        session,
        check: input.check ?? options.check,
      });
      return { text: result.summary + entryNote(result), data: result };
    },
  }, sessionOf);

  return [read, edit, write];
}
