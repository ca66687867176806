/**
 * The revision-store routes: `POST /v1/revisions`, `GET /v1/revisions/{ref}`
 * (immutable, `ETag` = ref), `GET /v1/revisions/{ref}/source` (a window of
 * characters), `GET /v1/revisions/{ref}/lines` (an anchored window of lines),
 * `POST /v1/revisions/{ref}/edits` and `POST /v1/revisions/{ref}/patch`.
 *
 * @module
 */
import { sha256Hex } from "../_internal/sha256.ts";
import { Hono } from "hono";
import * as z from "zod";
import { NotFoundError } from "../errors.ts";
import { PatchOpSchema } from "../patch/schema.ts";
import { revisionPatchFrom } from "../tools/patch_input.ts";
import type { RevisionStore } from "../store/types.ts";
import { EditItemSchema } from "../tools/inputs.ts";
import { anchoredRevision } from "../tools/revision_lines.ts";
import { parseInput } from "../tools/validate.ts";
import type { HttpEnv } from "./_env.ts";
import { etagMatches, json } from "./_respond.ts";
import { jsonBody } from "./middleware/json_body.ts";
import { CHECK_MODES, type CheckMode } from "../check/modes.ts";

// Syntax check of a revision (src/check): a mode, and a file name naming the language.
const checkFields = {
  check: z.enum(CHECK_MODES as [CheckMode, ...CheckMode[]]).optional(),
  path: z.string().min(1).optional(),
};
const PutBody = z.object({ source: z.string(), ...checkFields });
const EditsBody = z.object({
  edits: z.array(EditItemSchema).min(1),
  ...checkFields,
});
const RevisionPatchBody = z.object({
  ops: z.array(PatchOpSchema).optional(),
  patch: z.unknown().optional(),
  ...checkFields,
});

const IMMUTABLE = "public, max-age=31536000, immutable";

/** A query parameter that must be a whole number, when given. */
function wholeQuery(
  value: string | undefined,
  name: string,
): number | undefined {
  if (value === undefined || value === "") return undefined;
  if (!/^\d+$/.test(value)) {
    throw new TypeError(
      `Query parameter "${name}" must be a whole number, got "${value}".`,
    );
  }
  return Number(value);
}

/** Whether the store already holds exactly this source (so a put creates nothing). */
async function isStored(
  store: RevisionStore,
  source: string,
): Promise<boolean> {
  const hex = await sha256Hex(new TextEncoder().encode(source));
  try {
    await store.resolve(`sha256:${hex}`);
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

/** The revision router. */
export function revisionRoutes(
  store: () => Promise<RevisionStore>,
): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>();
  app.post("/v1/revisions", jsonBody(), async (c) => {
    const input = parseInput(PutBody, c.var.body, "request body");
    const st = await store();
    const existed = await isStored(st, input.source);
    const id = await st.put(input.source, {
      check: input.check,
      path: input.path,
    });
    const answer = {
      ok: true,
      ref: id.ref,
      handle: id.handle,
      ...(id.check && { check: id.check }),
    };
    if (existed) return json(answer);
    return json(answer, 201, { location: `/v1/revisions/${id.ref}` });
  });

  app.get("/v1/revisions/:ref", async (c) => {
    const st = await store();
    const id = await st.resolve(c.req.param("ref"));
    const headers = { etag: `"${id.ref}"`, "cache-control": IMMUTABLE };
    if (etagMatches(c.req.header("if-none-match") ?? null, id.ref)) {
      return new Response(null, { status: 304, headers });
    }
    const source = await st.get(id.ref);
    return new Response(source, {
      status: 200,
      headers: { ...headers, "content-type": "text/plain; charset=utf-8" },
    });
  });

  app.get("/v1/revisions/:ref/source", async (c) => {
    const read = await (await store()).source(c.req.param("ref"), {
      query: c.req.query("query") || undefined,
      offset: wholeQuery(c.req.query("offset"), "offset"),
      limit: wholeQuery(c.req.query("limit"), "limit"),
    });
    return json({ ok: true, ...read });
  });

  app.get("/v1/revisions/:ref/lines", async (c) => {
    const view = await anchoredRevision(await store(), c.req.param("ref"), {
      offset: wholeQuery(c.req.query("offset"), "offset"),
      limit: wholeQuery(c.req.query("limit"), "limit"),
    });
    // The view depends only on the ref and the window: it never changes.
    return json({ ok: true, ...view }, 200, { "cache-control": IMMUTABLE });
  });

  app.post("/v1/revisions/:ref/edits", jsonBody(), async (c) => {
    const input = parseInput(EditsBody, c.var.body, "request body");
    const result = await (await store()).edit(
      c.req.param("ref"),
      input.edits.map((e) => ({
        oldString: e.old_string,
        newString: e.new_string,
        replaceAll: e.replace_all,
      })),
      { check: input.check, path: input.path },
    );
    return json({ ok: true, ...result });
  });

  app.post("/v1/revisions/:ref/patch", jsonBody(), async (c) => {
    const input = parseInput(RevisionPatchBody, c.var.body, "request body");
    const patch = revisionPatchFrom(input, "Request body");
    const result = await (await store()).patch(c.req.param("ref"), patch, {
      check: input.check,
      path: input.path,
    });
    return json({ ok: true, ...result });
  });
  return app;
}
