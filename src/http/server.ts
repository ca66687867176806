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
import { isLoopback } from "./_loopback.ts";
import { type AppOptions, createApp } from "./app.ts";

export { isLoopback };

/** Where and how to serve. */
export interface ServerOptions extends AppOptions {
  /** Address to bind (default `127.0.0.1`). A non-loopback address needs `token`. */
  host?: string;
  /** Port (default 8787; `0` picks a free one). */
  port?: number;
  /** A connection idle this long is closed, in milliseconds (default 30 000; not settable under Deno). */
  idleTimeoutMs?: number;
  /** Node: a whole request must arrive within this, in milliseconds (default 60 000). */
  requestTimeoutMs?: number;
  /** Node: request headers must arrive within this, in milliseconds (default 10 000). */
  headersTimeoutMs?: number;
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
 * Starts the app on a port.
 *
 * The app's own guards apply (without a token: loopback `Host` and `Origin`
 * only, JSON bodies only); on top, a non-loopback bind needs a token, and
 * idle and slow connections are timed out.
 *
 * @param options Address, port, timeouts, and everything `createApp` takes.
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
  if (!isLoopback(host) && !options.token) {
    throw new TypeError(
      `Refusing to serve on ${host} without a token: anyone who can reach that address could edit your files. Pass --token <secret> (option token, or HASHLINE_TOKEN), or bind 127.0.0.1.`,
    );
  }
  const app = createApp(options);
  const running = await serveHttp(app.fetch, {
    hostname: host,
    port,
    idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
    requestTimeoutMs: options.requestTimeoutMs ?? 60_000,
    headersTimeoutMs: options.headersTimeoutMs ?? 10_000,
  });
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
