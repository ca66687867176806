/**
 * The history routes: `GET /v1/history?session=&path=&limit=`,
 * `GET /v1/history/{id}` and `POST /v1/history/{id}/undo` (body `{}` or
 * `{ "dryRun": true }`). The session of an undo is the `Hashline-Session`
 * header.
 *
 * @module
 */
import { Hono } from "hono";
import * as z from "zod";
import type { Workspace } from "../workspace/mod.ts";
import { parseInput } from "../tools/validate.ts";
import type { HttpEnv } from "./_env.ts";
import { json } from "./_respond.ts";
import { jsonPieces } from "./_json_stream.ts";
import { sessionOf } from "./_session.ts";
import { jsonBody } from "./middleware/json_body.ts";

const UndoBody = z.object({ dryRun: z.boolean().optional() }).strict();

function limitOf(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw new TypeError(
      `Query "limit" must be a whole number ≥ 1, got ${JSON.stringify(raw)}.`,
    );
  }
  return Number(raw);
}

/** What the history routes need. */
export interface HistoryRouteOptions {
  workspace(): Promise<Workspace>;
  session: string;
}

/** The history router. */
export function historyRoutes(options: HistoryRouteOptions): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>();
  app.get("/v1/history", async (c) => {
    // The session filter is the query; a header still names a session.
    sessionOf(c.req.raw, undefined);
    const entries = await (await options.workspace()).history({
      session: c.req.query("session") || undefined,
      path: c.req.query("path") || undefined,
      limit: limitOf(c.req.query("limit")),
    });
    const warnings = entries.warnings;
    return json({ ok: true, entries, ...(warnings ? { warnings } : {}) });
  });
  app.get("/v1/history/:id", async (c) => {
    sessionOf(c.req.raw, undefined);
    const entry = await (await options.workspace()).entry(c.req.param("id"));
    // A whole diff may be as long as the file: sent in pieces.
    return jsonPieces({ ok: true, entry });
  });
  app.post("/v1/history/:id/undo", jsonBody(), async (c) => {
    const session = sessionOf(c.req.raw, options.session);
    const input = parseInput(UndoBody, c.var.body ?? {}, "request body");
    const result = await (await options.workspace()).undo(c.req.param("id"), {
      dryRun: input.dryRun ?? false,
      session,
    });
    return json({ ok: true, ...result });
  });
  return app;
}
