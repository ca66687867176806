/**
 * The tool handlers behind `createToolRegistry`. Workspace and store are
 * reached through resolvers so the HTTP app can create them on first use
 * (an edge deployment that only formats never touches the file system).
 *
 * @module
 */
import type { z } from "zod";
import { parsePatch } from "../patch/parse.ts";
import type { RevisionStore } from "../store/types.ts";
import { mapError } from "./_errors.ts";
import { parseInput, toJsonSchema } from "./_input.ts";
import { patchFromInput } from "./_patch_input.ts";
import type { Workspace } from "../workspace/mod.ts";
import {
  DESCRIPTIONS,
  PROMPT_HASHLINE,
  PROMPT_STORE,
  PROMPT_STR_REPLACE,
} from "./_prompts.ts";
import { strReplaceInWorkspace } from "./_str_replace.ts";
import { exportToWorkspace } from "./_export.ts";
import {
  HashlineEditInputSchema,
  ReadFileInputSchema,
  SourceEditInputSchema,
  SourceExportInputSchema,
  SourcePatchInputSchema,
  SourcePutInputSchema,
  SourceReadInputSchema,
  StrReplaceEditInputSchema,
  WriteFileInputSchema,
} from "./_tool_inputs.ts";
import type {
  EditFormat,
  ToolCallOptions,
  ToolDefinition,
  ToolRegistry,
  ToolResult,
} from "./tools.ts";

/** How the handlers reach their backing objects; an absent resolver drops its tools. */
export interface Resolvers {
  workspace?: () => Promise<Workspace>;
  store?: () => Promise<RevisionStore>;
}

/** Registry settings. */
export interface BuildOptions {
  editFormat: EditFormat;
  /** Session used when a call names none. */
  session: string;
}

interface Output {
  text: string;
  data: unknown;
}

/**
 * Builds the registry: the tool list (only tools whose backing is present),
 * lookup, a call that never throws, and the system-prompt snippet.
 */
export function buildRegistry(
  resolvers: Resolvers,
  options: BuildOptions,
): ToolRegistry {
  const { editFormat } = options;
  const sessionOf = (call?: ToolCallOptions): string =>
    typeof call?.session === "string" && call.session !== ""
      ? call.session
      : options.session;

  function define<T>(
    name: string,
    description: string,
    schema: z.ZodType<T>,
    run: (input: T, session: string) => Promise<Output>,
  ): ToolDefinition {
    return {
      name,
      description,
      inputSchema: toJsonSchema(schema),
      handler: async (
        input: unknown,
        call?: ToolCallOptions,
      ): Promise<ToolResult> => {
        try {
          const parsed = parseInput(schema, input ?? {}, `${name} input`);
          const out = await run(parsed, sessionOf(call));
          return { ok: true, text: out.text, data: out.data };
        } catch (error) {
          return { ok: false, error: mapError(error).body };
        }
      },
    };
  }

  const tools: ToolDefinition[] = [];
  const ws = resolvers.workspace;
  const st = resolvers.store;

  if (ws) {
    tools.push(define(
      "read_file",
      editFormat === "hashline"
        ? DESCRIPTIONS.readHashline
        : DESCRIPTIONS.readPlain,
      ReadFileInputSchema,
      async (input, session) => {
        const view = await (await ws()).read(input.path, {
          offset: input.offset,
          limit: input.limit,
          session,
        });
        const body = editFormat === "hashline"
          ? view.text
          : plainLines(view.text);
        return { text: body + readFooter(view), data: view };
      },
    ));
    if (editFormat === "hashline") {
      tools.push(define(
        "edit_file",
        DESCRIPTIONS.editHashline,
        HashlineEditInputSchema,
        async (input, session) => {
          const patch = patchFromInput(input, "edit_file");
          const outcome = await (await ws()).patch(patch, {
            dryRun: input.dryRun,
            session,
          });
          const text = outcome.dryRun && !/dry run/i.test(outcome.summary)
            ? `Dry run — nothing written.\n${outcome.summary}`
            : outcome.summary;
          return { text, data: outcome };
        },
      ));
    } else {
      tools.push(define(
        "edit_file",
        DESCRIPTIONS.editStrReplace,
        StrReplaceEditInputSchema,
        async (input, session) => {
          const outcome = await strReplaceInWorkspace(await ws(), {
            path: input.path,
            oldString: input.old_string,
            newString: input.new_string,
            replaceAll: input.replace_all ?? false,
            session,
          });
          return { text: outcome.summary, data: outcome };
        },
      ));
    }
    tools.push(define(
      "write_file",
      DESCRIPTIONS.write,
      WriteFileInputSchema,
      async (input, session) => {
        const result = await (await ws()).write(input.path, input.content, {
          session,
        });
        return {
          text: writeSummary(input.path, input.content, result),
          data: result,
        };
      },
    ));
  }

  if (st) {
    tools.push(
      define(
        "source_put",
        DESCRIPTIONS.sourcePut,
        SourcePutInputSchema,
        async (input) => {
          const id = await (await st()).put(input.source);
          return { text: `Stored as ${id.handle} (${id.ref}).`, data: id };
        },
      ),
    );
    tools.push(define(
      "source_read",
      DESCRIPTIONS.sourceRead,
      SourceReadInputSchema,
      async (input) => {
        const read = await (await st()).source(input.ref, {
          query: input.query,
          offset: input.offset,
          limit: input.limit,
        });
        let text = read.code;
        if (!read.found) {
          text = `No match for ${
            JSON.stringify(input.query ?? "")
          } in ${input.ref}.`;
        } else if (read.nextOffset !== null) {
          text += `\n\n(Characters ${read.offset}–${
            read.offset + read.code.length
          } of ${read.totalChars}. Call source_read with offset ${read.nextOffset} for more.)`;
        }
        return { text, data: read };
      },
    ));
    tools.push(define(
      "source_edit",
      DESCRIPTIONS.sourceEdit,
      SourceEditInputSchema,
      async (input) => {
        const result = await (await st()).edit(
          input.ref,
          input.edits.map((e) => ({
            oldString: e.old_string,
            newString: e.new_string,
            replaceAll: e.replace_all,
          })),
        );
        return { text: revisionSummary(result), data: result };
      },
    ));
    tools.push(define(
      "source_patch",
      DESCRIPTIONS.sourcePatch,
      SourcePatchInputSchema,
      async (input) => {
        const given = [input.ops, input.patch].filter((v) =>
          v !== undefined
        ).length;
        if (given !== 1) {
          throw new TypeError(
            'source_patch needs exactly one of field "ops" (an array of ops) or field "patch" (the text form).',
          );
        }
        const patch = input.ops ??
          parsePatch(input.patch, { headerless: true });
        const result = await (await st()).patch(input.ref, patch);
        return { text: revisionSummary(result), data: result };
      },
    ));
  }

  if (ws && st) {
    tools.push(define(
      "source_export",
      DESCRIPTIONS.sourceExport,
      SourceExportInputSchema,
      async (input, session) => {
        const result = await exportToWorkspace(
          await ws(),
          await st(),
          input.ref,
          input.path,
          session,
        );
        return {
          text:
            `Exported ${result.ref} to ${input.path} (${result.bytes} bytes).`,
          data: result,
        };
      },
    ));
  }

  const byName = new Map(tools.map((t) => [t.name, t]));
  const prompt = [
    ws
      ? (editFormat === "hashline" ? PROMPT_HASHLINE : PROMPT_STR_REPLACE)
      : "",
    st ? PROMPT_STORE : "",
  ].filter(Boolean).join("\n\n");

  return {
    tools,
    editFormat,
    systemPrompt: prompt,
    get: (name: string) => byName.get(name),
    call: (
      name: string,
      input: unknown,
      call?: ToolCallOptions,
    ): Promise<ToolResult> => {
      const tool = byName.get(name);
      if (!tool) {
        return Promise.resolve({
          ok: false,
          error: {
            code: "UNKNOWN_TOOL",
            message: `No tool named "${name}". Available tools: ${
              tools.map((t) => t.name).join(", ") || "none"
            }.`,
          },
        });
      }
      return tool.handler(input, call);
    },
  };
}

/** Hashline view → `     N\tcontent` lines, as str_replace tools show files. */
function plainLines(text: string): string {
  if (text === "") return "";
  return text.split("\n").map((line) => {
    const m = /^(\d+):[0-9a-f]{2}\|/.exec(line);
    return m ? `${m[1].padStart(6)}\t${line.slice(m[0].length)}` : line;
  }).join("\n");
}

function readFooter(
  view: {
    totalLines: number;
    startLine: number;
    endLine: number;
    nextOffset: number | null;
  },
): string {
  if (view.totalLines === 0) return "(The file is empty: 0 lines.)";
  if (view.nextOffset === null) return "";
  return `\n\n(Lines ${view.startLine}–${view.endLine} of ${view.totalLines}. Call read_file with offset ${view.nextOffset} for more.)`;
}

function writeSummary(path: string, content: string, result: unknown): string {
  const r = (result ?? {}) as { created?: boolean; summary?: string };
  if (typeof r.summary === "string") return r.summary;
  const verb = r.created === true
    ? "Created"
    : r.created === false
    ? "Replaced"
    : "Wrote";
  const bytes = new TextEncoder().encode(content).length;
  return `${verb} ${path} (${bytes} bytes).`;
}

function revisionSummary(
  r: {
    ref: string;
    handle: string;
    parentRef: string;
    diff: string;
    diffTruncated: boolean;
  },
): string {
  const head = `New revision ${r.handle} (${r.ref}) from ${r.parentRef}.`;
  if (!r.diff) return head;
  return `${head}\n\n${r.diff}${r.diffTruncated ? "\n(diff truncated)" : ""}`;
}
