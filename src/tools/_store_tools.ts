/**
 * The revision-store tools: `source_put`, `source_read` (a window of
 * characters, or anchored lines for `source_patch`), `source_edit`,
 * `source_patch`, and with a workspace `source_export`.
 *
 * @module
 */
import { revisionPatchFrom } from "./patch_input.ts";
import {
  type CheckMode,
  describeCheck,
  type SyntaxCheck,
} from "../check/mod.ts";
import type { RevisionStore } from "../store/types.ts";
import type { Workspace } from "../workspace/mod.ts";
import { defineTool, READ_ONLY } from "./_define.ts";
import {
  SourceEditInputSchema,
  type SourceExportInput,
  SourceExportInputSchema,
  SourcePatchInputSchema,
  SourcePutInputSchema,
  type SourceReadInput,
  SourceReadInputSchema,
} from "./inputs.ts";
import {
  ExportOutput,
  PutOutput,
  RevisionOutput,
  SourceReadOutput,
} from "./_outputs.ts";
import { DESCRIPTIONS } from "./_prompts.ts";
import { readFooter, revisionSummary } from "./_text.ts";
import { exportToWorkspace } from "./export.ts";
import { anchoredRevision } from "./revision_lines.ts";
import type { ToolCallOptions, ToolDefinition } from "./types.ts";

/** What the store tools need. */
export interface StoreToolOptions {
  store: () => Promise<RevisionStore>;
  /** Present when `source_export` has a workspace to write to. */
  workspace?: () => Promise<Workspace>;
  /** Default syntax check of revisions; a call's own `check` wins. */
  check?: CheckMode;
  sessionOf: (call?: ToolCallOptions) => string;
}

async function readSource(
  store: RevisionStore,
  input: SourceReadInput,
): Promise<{ text: string; data: Record<string, unknown> }> {
  if (input.anchors === true) {
    if (input.query !== undefined) {
      throw new TypeError(
        'Field "query" is for character windows: with anchors, give offset (a line) instead, or leave anchors out to search.',
      );
    }
    const view = await anchoredRevision(store, input.ref, input);
    return {
      text: view.text + readFooter(view, "source_read", "revision"),
      data: { ...view, anchors: true },
    };
  }
  const [id, read] = await Promise.all([
    store.resolve(input.ref),
    store.source(input.ref, {
      query: input.query,
      offset: input.offset,
      limit: input.limit,
    }),
  ]);
  let text = read.code;
  if (!read.found) {
    text = `No match for ${JSON.stringify(input.query ?? "")} in ${input.ref}.`;
  } else if (read.nextOffset !== null) {
    text += `\n\n(Characters ${read.offset}–${
      read.offset + read.code.length
    } of ${read.totalChars}. Call source_read with offset ${read.nextOffset} for more.)`;
  }
  return { text, data: { ref: id.ref, anchors: false, ...read } };
}

/** The syntax check of a revision, as the text a model reads ("" when it broke nothing). */
function checkNote(check: SyntaxCheck | undefined): string {
  const text = check ? describeCheck(check) : "";
  return text === "" ? "" : `\n\nWarning: ${text}`;
}

/** The store tools, and `source_export` when there is a workspace. */
export function storeTools(options: StoreToolOptions): ToolDefinition[] {
  const { store: st, workspace: ws, sessionOf } = options;
  const revising = {
    readOnlyHint: false,
    // A revision is never changed: an edit makes a new one.
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  };
  const tools = [
    defineTool({
      name: "source_put",
      title: "Store a source",
      description: DESCRIPTIONS.sourcePut,
      input: SourcePutInputSchema,
      output: PutOutput,
      annotations: revising,
      run: async (input) => {
        const id = await (await st()).put(input.source, {
          check: input.check ?? options.check,
        });
        return {
          text: `Stored as ${id.handle} (${id.ref}).${checkNote(id.check)}`,
          data: id,
        };
      },
    }, sessionOf),
    defineTool({
      name: "source_read",
      title: "Read a stored revision",
      description: DESCRIPTIONS.sourceRead,
      input: SourceReadInputSchema,
      output: SourceReadOutput,
      annotations: READ_ONLY,
      run: async (input) => await readSource(await st(), input),
    }, sessionOf),
    defineTool({
      name: "source_edit",
      title: "Edit a revision by string replacement",
      description: DESCRIPTIONS.sourceEdit,
      input: SourceEditInputSchema,
      output: RevisionOutput,
      annotations: revising,
      run: async (input) => {
        const result = await (await st()).edit(
          input.ref,
          input.edits.map((e) => ({
            oldString: e.old_string,
            newString: e.new_string,
            replaceAll: e.replace_all,
          })),
          { check: input.check ?? options.check },
        );
        return {
          text: revisionSummary(result) + checkNote(result.check),
          data: result,
        };
      },
    }, sessionOf),
    defineTool({
      name: "source_patch",
      title: "Patch a revision by anchors",
      description: DESCRIPTIONS.sourcePatch,
      input: SourcePatchInputSchema,
      output: RevisionOutput,
      annotations: revising,
      run: async (input) => {
        const patch = revisionPatchFrom(input, "source_patch");
        const result = await (await st()).patch(input.ref, patch, {
          check: input.check ?? options.check,
        });
        return {
          text: revisionSummary(result) + checkNote(result.check),
          data: result,
        };
      },
    }, sessionOf),
  ];
  if (ws) {
    tools.push(defineTool({
      name: "source_export",
      title: "Export a revision to a new file",
      description: DESCRIPTIONS.sourceExport,
      input: SourceExportInputSchema,
      output: ExportOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        // A second export to the same path is refused: the file exists.
        idempotentHint: false,
        openWorldHint: false,
      },
      run: async (input: SourceExportInput, session: string) => {
        const result = await exportToWorkspace(
          await ws(),
          await st(),
          input.ref,
          input.path,
          session,
        );
        return {
          text:
            `Exported ${result.ref} to ${result.path} (${result.bytes} bytes).`,
          data: result,
        };
      },
    }, sessionOf));
  }
  return tools;
}
