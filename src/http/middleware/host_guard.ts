/**
 * Host and Origin guard (Hono middleware): a server without a token answers
 * only requests addressed to a loopback host, and browser requests only from
 * loopback origins, so a web page the user visits cannot drive it — neither
 * by a cross-site `fetch` (its `Origin` is foreign) nor by DNS rebinding
 * (its `Host` is foreign). Other hosts and origins can be allowed by name.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { errorJson } from "../_respond.ts";
import { isLoopback } from "../_loopback.ts";

/** What the guard lets through besides loopback hosts and origins. */
export interface HostGuardOptions {
  /** Host names (without port, any case) accepted besides `127.0.0.1`, `localhost` and `[::1]`. */
  allowedHosts?: readonly string[];
  /** Origins (`scheme://host[:port]`) whose browser requests are accepted besides loopback ones. */
  allowedOrigins?: readonly string[];
}

/** How many accepted `Host` values each guard remembers. */
const GOOD_HOSTS_KEPT = 16;

function hostnameOf(hostHeader: string): string | null {
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return null;
  }
}

function normalOrigin(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.origin === "null" ? null : url.origin;
  } catch {
    return null;
  }
}

/**
 * Creates the guard.
 *
 * @param options Extra hosts and origins to accept.
 * @returns Middleware answering 403 `FORBIDDEN` to a foreign `Host` or `Origin`.
 * @throws {TypeError} An allowed origin that is not a `scheme://host[:port]` URL.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { hostGuard } from "./host_guard.ts";
 * const app = new Hono().use(hostGuard()).get("/", (c) => c.text("hi"));
 * assert.equal((await app.request("/")).status, 200);
 * const evil = await app.request("/", { headers: { origin: "http://evil.example" } });
 * assert.equal(evil.status, 403);
 * ```
 */
export function hostGuard(options: HostGuardOptions = {}): MiddlewareHandler {
  const hosts = new Set(
    (options.allowedHosts ?? []).map((h) =>
      h.replace(/^\[(.*)\]$/, "$1").toLowerCase()
    ),
  );
  const origins = new Set<string>();
  for (const o of options.allowedOrigins ?? []) {
    const normal = normalOrigin(o);
    if (normal === null) {
      throw new TypeError(
        `allowedOrigins must hold origins such as "https://app.example" or "http://localhost:3000", got ${
          JSON.stringify(o)
        }.`,
      );
    }
    origins.add(normal);
  }
  const hostOk = (name: string | null): boolean =>
    name !== null &&
    (isLoopback(name) || hosts.has(name.replace(/^\[(.*)\]$/, "$1")));

  // A client sends the same Host on every request: the few Host values
  // already found good are remembered, which spares a URL parse per request
  // (the verdict depends on the value alone; foreign values are never kept).
  const goodHosts = new Set<string>();

  return async function hostGuard(c, next) {
    const header = c.req.header("host");
    if (header === undefined || !goodHosts.has(header)) {
      const host = header === undefined
        ? new URL(c.req.url).hostname
        : hostnameOf(header);
      if (!hostOk(host)) {
        return errorJson({
          code: "FORBIDDEN",
          message:
            `This server only answers requests addressed to this machine (Host ${
              JSON.stringify(header ?? host)
            } is not): connect to 127.0.0.1 or localhost, or start it with a token or with allowedHosts.`,
        });
      }
      if (header !== undefined && goodHosts.size < GOOD_HOSTS_KEPT) {
        goodHosts.add(header);
      }
    }
    const origin = c.req.header("origin");
    if (origin !== undefined) {
      const normal = normalOrigin(origin);
      const url = normal === null ? null : new URL(normal);
      if (
        url === null ||
        !(isLoopback(url.hostname) || origins.has(url.origin))
      ) {
        return errorJson({
          code: "FORBIDDEN",
          message: `This server does not take browser requests from ${
            JSON.stringify(origin)
          }: only from loopback origins, or from those given in allowedOrigins (or with a token).`,
        });
      }
    }
    await next();
  };
}
