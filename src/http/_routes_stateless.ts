/**
 * The stateless routes, which need neither a workspace nor a store (so they
 * run on edge platforms): `GET /health`, `POST /v1/format` and
 * `POST /v1/apply`. The latter has no session read record: it checks each
 * anchor's 2-hex fold only and refuses line numbers alone (`BAD_ANCHOR`).
 *
 * @module
 */
import { Hono } from "hono";
import * as z from "zod";
import { applyPatch } from "../patch/apply.ts";
import { hasBlockAnchors } from "../block/expand.ts";
import { problem, refusal } from "../patch/problems.ts";
import { PatchOpSchema } from "../patch/schema.ts";
import { parsePatch } from "../patch/parse.ts";
import { refuseFileParts } from "../patch/one_content.ts";
import type { Patch, PatchOp } from "../patch/types.ts";
import { MAX_READ_LINES } from "../tools/inputs.ts";
import { parseInput } from "../tools/validate.ts";
import type { HttpEnv } from "./_env.ts";
import { formatAnswerBytes, formatBodyAnswer } from "./_format.ts";
import { json, jsonBytes, jsonText } from "./_respond.ts";
import { jsonBody } from "./middleware/json_body.ts";

const FormatBody = z.object({
  content: z.string(),
  offset: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).max(MAX_READ_LINES).optional(),
});
const ApplyBody = z.object({
  content: z.string(),
  path: z.string().optional(),
  ops: z.array(PatchOpSchema).optional(),
  patch: z.unknown().optional(),
});

/** Exactly one of `ops` and `patch`. */
function onePatch(
  input: { ops?: PatchOp[]; patch?: unknown },
): PatchOp[] | Patch | string {
  if ((input.ops === undefined) === (input.patch === undefined)) {
    throw new TypeError(
      'Request body needs exactly one of field "ops" (an array of ops) or field "patch" (the text form).',
    );
  }
  if (input.ops !== undefined) return input.ops;
  if (typeof input.patch === "string") return input.patch;
  return parsePatch(input.patch);
}

/** `POST /v1/format`'s answer straight from a `{"content":"…"}` body, or null. */
function formatShortcut(bytes: Uint8Array): Response | null {
  const answer = formatBodyAnswer(bytes);
  return answer === null ? null : jsonText(answer);
}

/** Refuses a patch naming a block anchor where no grammar loads (the edge app). */
function refuseBlocks(patch: PatchOp[] | Patch | string): void {
  if (typeof patch === "string" && !patch.includes("*")) return;
  const parsed = Array.isArray(patch)
    ? { files: [{ path: "", ops: patch }] }
    : parsePatch(patch, { headerless: true });
  if (!parsed.files.some((f) => hasBlockAnchors(f.ops))) return;
  throw refusal([problem(
    "NOT_A_BLOCK",
    "Block anchors (LINE:HH*) need a grammar, and the edge app loads none: name the block's lines as a range START..END, or send the patch to a server's /v1/apply.",
    {},
  )]);
}

/** Applies a patch that may hold block anchors (they need a grammar). */
export type BlockApplier = (
  content: string,
  patch: PatchOp[] | Patch | string,
  options: { path?: string },
) => Promise<string>;

/**
 * The stateless router. Without `applyBlocks` (the edge app, which loads no
 * grammar) every patch goes through `applyPatch`, which refuses a block
 * anchor as `NOT_A_BLOCK`.
 */
export function statelessRoutes(
  applyBlocks?: BlockApplier,
): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>();
  app.get("/health", () => json({ ok: true, service: "hashline" }));

  // A body of the one shape `{"content":"…"}` is answered from its bytes;
  // any other is parsed and validated as every route's body is.
  app.post("/v1/format", jsonBody(formatShortcut), (c) => {
    const input = parseInput(FormatBody, c.var.body, "request body");
    return jsonBytes(formatAnswerBytes(input.content, {
      offset: input.offset,
      limit: input.limit,
    }));
  });

  app.post("/v1/apply", jsonBody(), async (c) => {
    const input = parseInput(ApplyBody, c.var.body, "request body");
    const patch = onePatch(input);
    if (!Array.isArray(patch)) {
      refuseFileParts(
        typeof patch === "string"
          ? parsePatch(patch, { headerless: true })
          : patch,
        "the content in the request",
        "POST /v1/files/patch (a workspace)",
      );
    }
    if (!applyBlocks) refuseBlocks(patch);
    // Block anchors need a grammar, loaded only when a patch names one.
    const content = !applyBlocks ||
        (typeof patch === "string" && !patch.includes("*"))
      ? applyPatch(input.content, patch)
      : await applyBlocks(
        input.content,
        patch,
        input.path === undefined ? {} : { path: input.path },
      );
    return json({ ok: true, content });
  });
  return app;
}
