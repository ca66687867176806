/**
 * The hashline HTTP app (Hono, Web-standard `fetch` only): stateless
 * `format`/`apply` routes for edge functions, workspace and revision-store
 * routes, and MCP over streamable HTTP at `/mcp`. Every answer is JSON
 * (`{ ok: true, … }` or `{ ok: false, error: { code, message } }`) except a
 * revision's source, which is immutable `text/plain`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createApp } from "./app.ts";
 * const app = createApp();
 * const res = await app.request("/v1/format", {
 *   method: "POST",
 *   body: JSON.stringify({ content: "x\ny\n" }),
 * });
 * assert.equal((await res.json()).text, "1:26|x\n2:4a|y");
 * ```
 *
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import { formatHashlines } from "../anchor/format.ts";
import { applyPatch } from "../patch/apply.ts";
import { parsePatch } from "../patch/parse.ts";
import { FilePatchSchema, PatchOpSchema } from "../patch/schema.ts";
import type { PatchOp } from "../patch/types.ts";
import { NotFoundError } from "../errors.ts";
import type { RevisionStore } from "../store/types.ts";
import {
  errorJson,
  errorResponse,
  etagMatches,
  json,
  readJson,
  tokenMatches,
} from "./_http.ts";
import { parseInput } from "./_input.ts";
import { patchFromInput } from "./_patch_input.ts";
import { lazyResources } from "./_resources.ts";
import { buildRegistry } from "./_tool_defs.ts";
import { EditItemSchema, ReadFileInputSchema } from "./_tool_inputs.ts";
import type { McpHttpHandler } from "./mcp.ts";
import type { EditFormat, Workspace } from "./tools.ts";

/** What `createApp` returns: a Web-standard handler (the Hono app satisfies it). */
export interface HashlineApp {
  /** Answers one request. */
  fetch(request: Request): Response | Promise<Response>;
  /** Answers a request built from a path or URL (handy in tests and in-process calls). */
  request(
    input: string | Request | URL,
    init?: RequestInit,
  ): Response | Promise<Response>;
}

/** How the app is set up. Every field is optional. */
export interface AppOptions {
  /** Workspace root when no `workspace` is given (default: the working folder). */
  root?: string;
  /** Files on disk; created from `root` on first use when absent. */
  workspace?: Workspace;
  /** Revision store; a file store in `stateDir` is opened on first use when absent. */
  store?: RevisionStore;
  /** When set, every route except `GET /health` needs `Authorization: Bearer <token>`. */
  token?: string;
  /** Largest request body, in bytes (default 8 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** Edit format of the MCP `edit_file` tool (default `"hashline"`). */
  editFormat?: EditFormat;
  /** State folder (default `HASHLINE_STORE`, or `.hashline/` under the working folder). */
  stateDir?: string;
  /** Session of requests without a `Hashline-Session` header (default `"default"`). */
  session?: string;
}

/** Default request body limit: 8 MiB. */
export const DEFAULT_MAX_BODY_BYTES: number = 8 * 1024 * 1024;

/** The session header; absent means session `default`. */
export const SESSION_HEADER = "Hashline-Session";

const SESSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const FormatBody = z.object({
  content: z.string(),
  offset: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).optional(),
});
const ApplyBody = z.object({
  content: z.string(),
  ops: z.array(PatchOpSchema).optional(),
  patch: z.unknown().optional(),
});
const FilesPatchBody = z.object({
  patch: z.unknown().optional(),
  files: z.array(FilePatchSchema).optional(),
  path: z.string().optional(),
  ops: z.array(PatchOpSchema).optional(),
  dryRun: z.boolean().optional(),
});
const PutBody = z.object({ source: z.string() });
const EditsBody = z.object({ edits: z.array(EditItemSchema).min(1) });
const RevisionPatchBody = z.object({
  ops: z.array(PatchOpSchema).optional(),
  patch: z.unknown().optional(),
});

/** Route paths and their methods, for 405 answers. */
const ROUTES: [RegExp, string][] = [
  [/^\/health$/, "GET"],
  [/^\/v1\/(format|apply|files\/read|files\/patch|revisions)$/, "POST"],
  [/^\/v1\/revisions\/[^/]+$/, "GET"],
  [/^\/v1\/revisions\/[^/]+\/source$/, "GET"],
  [/^\/v1\/revisions\/[^/]+\/(edits|patch)$/, "POST"],
  [/^\/mcp$/, "POST, DELETE"],
];

/**
 * Creates the HTTP app.
 *
 * @param options Workspace, store, token, body limit, edit format; all optional.
 * @returns The app; pass `app.fetch` to any Web-standard server.
 * @throws {TypeError} When `maxBodyBytes` is not a positive whole number, `token` is empty, or `session` is not a safe name.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createApp } from "./app.ts";
 * const app = createApp({ token: "s3cret" });
 * assert.equal((await app.request("/health")).status, 200);
 * const denied = await app.request("/v1/format", { method: "POST", body: "{}" });
 * assert.equal(denied.status, 401);
 * const res = await app.request("/v1/apply", {
 *   method: "POST",
 *   headers: { authorization: "Bearer s3cret" },
 *   body: JSON.stringify({ content: "x\ny\n", patch: "= 2:4a\n~Y" }),
 * });
 * assert.deepEqual(await res.json(), { ok: true, content: "x\nY\n" });
 * ```
 */
export function createApp(options: AppOptions = {}): HashlineApp {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBody) || maxBody < 1) {
    throw new TypeError(
      `maxBodyBytes must be a whole number of bytes ≥ 1, got ${maxBody}.`,
    );
  }
  if (
    options.token !== undefined &&
    (typeof options.token !== "string" || options.token === "")
  ) {
    throw new TypeError("token must be a non-empty string when given.");
  }
  const token = options.token;
  const defaultSession = options.session ?? "default";
  if (!SESSION_NAME.test(defaultSession)) {
    throw new TypeError(
      `session must be 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit; got ${
        JSON.stringify(defaultSession)
      }.`,
    );
  }
  const resources = lazyResources(options);
  const registry = buildRegistry(
    { workspace: resources.ephemeralWorkspace, store: resources.store },
    { editFormat: options.editFormat ?? "hashline", session: "default" },
  );
  let mcp: Promise<McpHttpHandler> | undefined;

  const app = new Hono();
  const body = (request: Request): Promise<unknown> =>
    readJson(request, maxBody);

  app.onError((error) => errorResponse(error));
  app.notFound((c) => {
    const path = c.req.path;
    const route = ROUTES.find(([re]) => re.test(path));
    if (route) {
      return errorJson(405, {
        code: "METHOD_NOT_ALLOWED",
        message: `${c.req.method} is not allowed on ${path}: use ${route[1]}.`,
      }, { allow: route[1] });
    }
    return errorJson(404, {
      code: "NOT_FOUND",
      message:
        `No route ${c.req.method} ${path}. Routes: GET /health, POST /v1/format, POST /v1/apply, POST /v1/files/read, POST /v1/files/patch, POST /v1/revisions, GET /v1/revisions/{ref}, GET /v1/revisions/{ref}/source, POST /v1/revisions/{ref}/edits, POST /v1/revisions/{ref}/patch, POST /mcp.`,
    });
  });

  if (token !== undefined) {
    app.use("*", async (c, next) => {
      if (c.req.path === "/health") return await next();
      const header = c.req.header("authorization") ?? "";
      const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
      if (!m || !(await tokenMatches(m[1], token))) {
        return errorJson(401, {
          code: "UNAUTHORIZED",
          message:
            "This server needs a bearer token: send the header Authorization: Bearer <token>.",
        }, { "www-authenticate": 'Bearer realm="hashline"' });
      }
      await next();
    });
  }

  const session = (request: Request): string => {
    const name = request.headers.get(SESSION_HEADER);
    if (name === null || name === "") return defaultSession;
    if (!SESSION_NAME.test(name)) {
      throw new TypeError(
        `Header "${SESSION_HEADER}" must be 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit; got ${
          JSON.stringify(name.slice(0, 140))
        }.`,
      );
    }
    return name;
  };

  app.get("/health", () => json({ ok: true, service: "hashline" }));

  app.post("/v1/format", async (c) => {
    const input = parseInput(FormatBody, await body(c.req.raw), "request body");
    const view = formatHashlines(input.content, {
      offset: input.offset,
      limit: input.limit,
    });
    return json({ ok: true, ...view });
  });

  app.post("/v1/apply", async (c) => {
    const input = parseInput(ApplyBody, await body(c.req.raw), "request body");
    const given = [input.ops, input.patch].filter((v) =>
      v !== undefined
    ).length;
    if (given !== 1) {
      throw new TypeError(
        'Request body needs exactly one of field "ops" (an array of ops) or field "patch" (the text form).',
      );
    }
    let ops: PatchOp[] | string | object;
    if (input.ops !== undefined) ops = input.ops;
    else if (typeof input.patch === "string") ops = input.patch;
    else if (input.patch !== null && typeof input.patch === "object") {ops =
        parsePatch(input.patch);} else {throw new TypeError(
        'Field "patch" must be the text form (a string) or the JSON form.',
      );}
    return json({
      ok: true,
      content: applyPatch(input.content, ops as PatchOp[]),
    });
  });

  app.post("/v1/files/read", async (c) => {
    const who = session(c.req.raw);
    const input = parseInput(
      ReadFileInputSchema,
      await body(c.req.raw),
      "request body",
    );
    const view = await (await resources.workspace()).read(input.path, {
      offset: input.offset,
      limit: input.limit,
      session: who,
    });
    return json({ ok: true, ...view });
  });

  app.post("/v1/files/patch", async (c) => {
    const who = session(c.req.raw);
    const input = parseInput(
      FilesPatchBody,
      await body(c.req.raw),
      "request body",
    );
    const patch = patchFromInput(input, "Request body");
    const outcome = await (await resources.workspace()).patch(patch, {
      dryRun: input.dryRun ?? false,
      session: who,
    });
    return json({ ok: true, ...outcome });
  });

  app.post("/v1/revisions", async (c) => {
    const input = parseInput(PutBody, await body(c.req.raw), "request body");
    const store = await resources.store();
    const existed = await isStored(store, input.source);
    const id = await store.put(input.source);
    const answer = { ok: true, ref: id.ref, handle: id.handle };
    if (existed) return json(answer);
    return json(answer, 201, { location: `/v1/revisions/${id.ref}` });
  });

  app.get("/v1/revisions/:ref", async (c) => {
    const store = await resources.store();
    const id = await store.resolve(c.req.param("ref"));
    const headers = {
      etag: `"${id.ref}"`,
      "cache-control": "public, max-age=31536000, immutable",
    };
    if (etagMatches(c.req.header("if-none-match") ?? null, id.ref)) {
      return new Response(null, { status: 304, headers });
    }
    const source = await store.get(id.ref);
    return new Response(source, {
      status: 200,
      headers: { ...headers, "content-type": "text/plain; charset=utf-8" },
    });
  });

  app.get("/v1/revisions/:ref/source", async (c) => {
    const read = await (await resources.store()).source(c.req.param("ref"), {
      query: c.req.query("query") || undefined,
      offset: wholeQuery(c.req.query("offset"), "offset"),
      limit: wholeQuery(c.req.query("limit"), "limit"),
    });
    return json({ ok: true, ...read });
  });

  app.post("/v1/revisions/:ref/edits", async (c) => {
    const input = parseInput(EditsBody, await body(c.req.raw), "request body");
    const result = await (await resources.store()).edit(
      c.req.param("ref"),
      input.edits.map((e) => ({
        oldString: e.old_string,
        newString: e.new_string,
        replaceAll: e.replace_all,
      })),
    );
    return json({ ok: true, ...result });
  });

  app.post("/v1/revisions/:ref/patch", async (c) => {
    const input = parseInput(
      RevisionPatchBody,
      await body(c.req.raw),
      "request body",
    );
    const given = [input.ops, input.patch].filter((v) =>
      v !== undefined
    ).length;
    if (given !== 1) {
      throw new TypeError(
        'Request body needs exactly one of field "ops" (an array of ops) or field "patch" (the text form).',
      );
    }
    const patch = input.ops ?? parsePatch(input.patch, { headerless: true });
    const result = await (await resources.store()).patch(
      c.req.param("ref"),
      patch,
    );
    return json({ ok: true, ...result });
  });

  app.on(["POST", "DELETE"], "/mcp", async (c) => {
    mcp ??= import("./mcp.ts").then((m) =>
      m.createMcpHttpHandler(registry, { maxBodyBytes: maxBody })
    );
    mcp.catch(() => (mcp = undefined));
    return await (await mcp).fetch(c.req.raw);
  });

  return app;
}

/** Whether the store already holds exactly this source (so a put creates nothing). */
async function isStored(
  store: RevisionStore,
  source: string,
): Promise<boolean> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(source),
  );
  const hex = Array.from(
    new Uint8Array(digest),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
  try {
    await store.resolve(`sha256:${hex}`);
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

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
