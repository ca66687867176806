/**
 * The guards every hashline app puts in front of its routes, in one place so
 * the full app and the edge app refuse the same requests the same way: the
 * Host/Origin guard (off when a token proves the caller), CORS for allowed
 * origins, the bearer token (all but `GET /health`), JSON-only bodies, the
 * body deadline and the body size limit; plus the JSON answers for errors,
 * unknown routes and wrong methods.
 *
 * @module
 */
import type { Hono } from "hono";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import type { HttpEnv } from "./_env.ts";
import { errorJson, errorResponse } from "./_respond.ts";
import { type RouteTable, routeTable } from "./_route_table.ts";
import { SESSION_HEADER } from "./_session.ts";
import { bodyDeadline } from "./middleware/body_deadline.ts";
import { bodySizeLimit } from "./middleware/body_limit.ts";
import { hostGuard } from "./middleware/host_guard.ts";
import { jsonOnly } from "./middleware/json_only.ts";
import { tokenAuth } from "./middleware/token_auth.ts";

/** Default request body limit: 8 MiB. */
export const DEFAULT_MAX_BODY_BYTES: number = 8 * 1024 * 1024;

/** Default time a request body may take to arrive: 30 s. */
export const DEFAULT_BODY_TIMEOUT_MS: number = 30_000;

/** The guard settings shared by the full app and the edge app. */
export interface GuardOptions {
  /** Bearer token every route but `GET /health` needs; turns the Host/Origin guard off. */
  token?: string;
  /** Origins accepted besides loopback ones; they also get CORS answers. */
  allowedOrigins?: string[];
  /** Host names accepted besides the loopback ones. */
  allowedHosts?: string[];
  /** Largest request body, in bytes (default {@link DEFAULT_MAX_BODY_BYTES}). */
  maxBodyBytes?: number;
  /** How long a request body may take to arrive, in ms (default {@link DEFAULT_BODY_TIMEOUT_MS}). */
  bodyTimeoutMs?: number;
}

/**
 * Puts the guards and the error answers on `app`, before any route is added.
 * Builds every middleware first, so a bad setting throws before anything is
 * registered.
 *
 * @throws {TypeError} When a limit is not a positive whole number, the token
 *   is not a bearer token, or an allowed origin is not an origin.
 */
export function useGuards(
  app: Hono<HttpEnv>,
  options: GuardOptions,
): void {
  const limit = bodySizeLimit(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  const deadline = bodyDeadline(
    options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
  );
  const auth = options.token === undefined
    ? undefined
    : tokenAuth(options.token);
  const guard = auth ? undefined : hostGuard({
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
  });

  app.onError((error) =>
    error instanceof HTTPException ? error.getResponse() : errorResponse(error)
  );
  // Read once the app answers its first unknown route: every route is added by then.
  let routes: RouteTable | undefined;
  app.notFound((c) => {
    routes ??= routeTable(app.routes);
    const path = c.req.path;
    const route = routes.methods.find(([re]) => re.test(path));
    if (route) {
      return errorJson({
        code: "METHOD_NOT_ALLOWED",
        message: `${c.req.method} is not allowed on ${path}: use ${route[1]}.`,
      }, { allow: route[1] });
    }
    return errorJson({
      code: "NOT_FOUND",
      message: `No route ${c.req.method} ${path}. Routes: ${routes.list}.`,
    });
  });

  if (guard) app.use(guard);
  if (options.allowedOrigins?.length) {
    app.use(cors({
      origin: options.allowedOrigins,
      allowHeaders: [
        "authorization",
        "content-type",
        SESSION_HEADER,
        "mcp-session-id",
        "mcp-protocol-version",
      ],
      exposeHeaders: ["etag", "location", "mcp-session-id"],
    }));
  }
  if (auth) {
    app.use(async (c, next) => {
      if (c.req.path === "/health") return await next();
      return await auth(c, next);
    });
  }
  app.use(jsonOnly(), deadline, limit);
}
