/**
 * Turns a zod input schema, a zod output schema and a handler into a tool
 * definition whose handler never throws: bad input and refusals come back as
 * `ok: false` with a stable code, and success data is passed through the
 * output schema so it always matches the declared `outputSchema`. A `null`
 * field counts as absent (OpenAI's strict mode sends every key).
 *
 * @module
 */
import type { z } from "zod";
import { toErrorBody } from "./error_body.ts";
import { dropNullFields, parseInput, toJsonSchema } from "./validate.ts";
import type {
  ToolAnnotations,
  ToolCallOptions,
  ToolDefinition,
  ToolResult,
} from "./types.ts";

/** What a handler hands back: text for the model, data for programs. */
export interface Output<D> {
  text: string;
  data: D;
}

/** Everything that describes one tool. */
export interface ToolSpec<I, D> {
  name: string;
  title: string;
  description: string;
  input: z.ZodType<I>;
  output: z.ZodType<D>;
  annotations: ToolAnnotations;
  run(input: I, session: string): Promise<Output<D>>;
}

/** Annotations of a tool that only reads. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Annotations of a tool that changes files in place (an edit, run again, edits again). */
export const EDITS_FILES: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};

/**
 * Builds the definition.
 *
 * @param spec The tool.
 * @param sessionOf The session a call counts for.
 */
export function defineTool<I, D>(
  spec: ToolSpec<I, D>,
  sessionOf: (call?: ToolCallOptions) => string,
): ToolDefinition {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: toJsonSchema(spec.input, "input"),
    outputSchema: toJsonSchema(spec.output, "output"),
    annotations: spec.annotations,
    handler: async (
      input: unknown,
      call?: ToolCallOptions,
    ): Promise<ToolResult> => {
      try {
        const parsed = parseInput(
          spec.input,
          dropNullFields(input ?? {}),
          `${spec.name} input`,
        );
        const out = await spec.run(parsed, sessionOf(call));
        const data = spec.output.parse(out.data) as Record<string, unknown>;
        return { ok: true, text: out.text, data };
      } catch (error) {
        return { ok: false, error: toErrorBody(error) };
      }
    },
  };
}
