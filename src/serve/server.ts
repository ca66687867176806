/**
 * Starts the hashline HTTP app on a port of this machine, under Deno, Bun or
 * Node. Binds `127.0.0.1` by default; any other address needs a bearer token.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startServer } from "./server.ts";
 * const server = await startServer({ port: 0 });
 * const res = await fetch(`${server.url}/health`);
 * assert.equal(res.status, 200);
 * await res.body?.cancel();
 * await server.close();
 * ```
 *
 * @module
 */
import { serveHttp } from "../_runtime/serve.ts";
import { errorJson } from "./_http.ts";
import { type AppOptions, createApp } from "./app.ts";

/** Where and how to serve. */
export interface ServerOptions extends AppOptions {
  /** Address to bind (default `127.0.0.1`). A non-loopback address needs `token`. */
  host?: string;
  /** Port (default 8787; `0` picks a free one). */
  port?: number;
}

/** A running server. */
export interface RunningHashlineServer {
  /** Base URL, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** The bound port. */
  port: number;
  /** The bound address. */
  host: string;
  /** Stops the server and closes open connections. */
  close(): Promise<void>;
}

/** Default port of `hashline serve`. */
export const DEFAULT_PORT = 8787;

/**
 * Whether an address only reaches this machine.
 *
 * @param host A hostname or IP address (IPv6 with or without brackets).
 * @returns True for `localhost`, `127.x.x.x` and `::1`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLoopback } from "./server.ts";
 * assert.equal(isLoopback("127.0.0.1"), true);
 * assert.equal(isLoopback("[::1]"), true);
 * assert.equal(isLoopback("0.0.0.0"), false);
 * ```
 */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return h === "localhost" || h === "::1" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) ||
    h === "::ffff:127.0.0.1";
}

/**
 * Starts the app on a port.
 *
 * Without a token the server only answers requests addressed to a loopback
 * host and refuses browser requests from other origins (403), so a web page
 * the user visits cannot reach the files through it (DNS rebinding, cross-site
 * posts).
 *
 * @param options Address, port, and everything `createApp` takes.
 * @returns The running server with its URL and port.
 * @throws {TypeError} A non-loopback host without a token, or a bad port.
 * @throws {Error} When the port cannot be bound.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startServer } from "./server.ts";
 * await assert.rejects(startServer({ host: "0.0.0.0", port: 0 }), /--token/);
 * ```
 */
export async function startServer(
  options: ServerOptions = {},
): Promise<RunningHashlineServer> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new TypeError(
      `port must be a whole number from 0 to 65535, got ${port}.`,
    );
  }
  const loopback = isLoopback(host);
  if (!loopback && !options.token) {
    throw new TypeError(
      `Refusing to serve on ${host} without a token: anyone who can reach that address could edit your files. Pass --token <secret> (option token), or bind 127.0.0.1.`,
    );
  }
  const app = createApp(options);
  const handler = options.token ? app.fetch : localOnly(app.fetch);
  const running = await serveHttp(handler, { hostname: host, port });
  const shown = host.includes(":") && !host.startsWith("[")
    ? `[${host}]`
    : host;
  return {
    url: `http://${shown}:${running.port}`,
    port: running.port,
    host,
    close: () => running.close(),
  };
}

/** Refuses requests for a non-loopback Host, and browser requests from a non-loopback Origin. */
function localOnly(
  fetch: (request: Request) => Response | Promise<Response>,
): (request: Request) => Response | Promise<Response> {
  return (request) => {
    const host = new URL(request.url).hostname;
    const origin = request.headers.get("origin");
    let originOk = origin === null;
    if (origin !== null) {
      try {
        originOk = isLoopback(new URL(origin).hostname);
      } catch {
        originOk = false;
      }
    }
    if (!isLoopback(host) || !originOk) {
      return errorJson(403, {
        code: "FORBIDDEN",
        message:
          "This server has no token and only answers local clients. Start it with --token to accept other hosts or origins.",
      });
    }
    return fetch(request);
  };
}
