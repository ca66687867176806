/**
 * The workspace routes: `POST /v1/files/read`, `POST /v1/files/patch`,
 * `POST /v1/files/write`, `POST /v1/files/list` and `POST /v1/files/search`. Each goes through the workspace's own operation
 * (the same rules as the CLI and MCP tools); the session is the
 * `Hashline-Session` header.
 *
 * @module
 */
import { Hono } from "hono";
import * as z from "zod";
import { CHECK_MODES, type CheckMode } from "../check/modes.ts";
import { EntryOpSchema, FileEntrySchema } from "../patch/schema.ts";
import type { Workspace } from "../workspace/mod.ts";
import {
  ListFilesInputSchema,
  ReadFileInputSchema,
  SearchFilesInputSchema,
  WriteFileInputSchema,
} from "../tools/inputs.ts";
import { patchFromInput } from "../tools/patch_input.ts";
import { parseInput } from "../tools/validate.ts";
import type { HttpEnv } from "./_env.ts";
import { json } from "./_respond.ts";
import { sessionOf } from "./_session.ts";
import { jsonBody } from "./middleware/json_body.ts";

const FilesPatchBody = z.object({
  patch: z.unknown().optional(),
  files: z.array(FileEntrySchema).optional(),
  path: z.string().optional(),
  ops: z.array(EntryOpSchema).optional(),
  dryRun: z.boolean().optional(),
  rebase: z.boolean().optional(),
  check: z.enum(CHECK_MODES as [CheckMode, ...CheckMode[]]).optional(),
});

/** What the workspace routes need. */
export interface FileRouteOptions {
  workspace(): Promise<Workspace>;
  session: string;
  rebase: boolean;
  /** Default read form of `POST /v1/files/read` (a request's own `anchors` wins). */
  anchors?: "hash" | "lean";
}

/** The workspace router. */
export function fileRoutes(options: FileRouteOptions): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>();
  app.post("/v1/files/read", jsonBody(), async (c) => {
    const session = sessionOf(c.req.raw, options.session);
    const input = parseInput(ReadFileInputSchema, c.var.body, "request body");
    const view = await (await options.workspace()).read(input.path, {
      offset: input.offset,
      limit: input.limit,
      anchors: input.anchors ?? options.anchors,
      session,
      ...(input.outline === true ? { outline: true } : {}),
    });
    return json({ ok: true, ...view });
  });

  app.post("/v1/files/patch", jsonBody(), async (c) => {
    const session = sessionOf(c.req.raw, options.session);
    const input = parseInput(FilesPatchBody, c.var.body, "request body");
    const patch = patchFromInput(input, "Request body");
    const outcome = await (await options.workspace()).patch(patch, {
      dryRun: input.dryRun ?? false,
      rebase: input.rebase ?? options.rebase,
      check: input.check,
      session,
    });
    return json({ ok: true, ...outcome });
  });

  // Whole-file write: creating needs no read; replacing needs the session
  // to have seen every line of the file as it stands.
  app.post("/v1/files/write", jsonBody(), async (c) => {
    const session = sessionOf(c.req.raw, options.session);
    const input = parseInput(WriteFileInputSchema, c.var.body, "request body");
    const result = await (await options.workspace()).write(
      input.path,
      input.content,
      { session, check: input.check },
    );
    return json({ ok: true, ...result });
  });

  app.post("/v1/files/list", jsonBody(), async (c) => {
    const input = parseInput(ListFilesInputSchema, c.var.body, "request body");
    const found = await (await options.workspace()).list({ glob: input.glob });
    return json({ ok: true, ...found });
  });

  // The lines a search shows count as read for the request's session.
  app.post("/v1/files/search", jsonBody(), async (c) => {
    const session = sessionOf(c.req.raw, options.session);
    const input = parseInput(
      SearchFilesInputSchema,
      c.var.body,
      "request body",
    );
    const found = await (await options.workspace()).search({
      pattern: input.pattern,
      glob: input.glob,
      session,
    });
    return json({ ok: true, ...found });
  });
  return app;
}
