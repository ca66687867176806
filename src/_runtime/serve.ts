/**
 * Serving on the host runtime: an HTTP server through `Deno.serve` on Deno,
 * `Bun.serve` on Bun, `@hono/node-server` on Node (loaded with a dynamic
 * `import()` so Deno and Bun never load it), and the standard streams for a
 * stdio server. Small structural types describe the runtime APIs, so no
 * runtime type package is needed.
 *
 * @module
 */
import process from "node:process";
import type { Readable, Writable } from "node:stream";
import { loadOptional } from "../_internal/optional.ts";

/** A request handler in Web-standard terms. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** Where to listen, and how long to wait for slow or idle clients. */
export interface ListenOptions {
  /** Interface address, e.g. `127.0.0.1`. */
  hostname: string;
  /** Port; `0` picks a free one. */
  port: number;
  /**
   * A connection with no traffic this long (milliseconds) is closed. Node
   * and Bun (whole seconds, at most 255) honour it; `Deno.serve` has no such
   * option, so there the app's own body deadline is what cuts slow clients.
   */
  idleTimeoutMs?: number;
  /** Node: the whole request (headers and body) must arrive within this (milliseconds). */
  requestTimeoutMs?: number;
  /** Node: the request headers must arrive within this (milliseconds). */
  headersTimeoutMs?: number;
}

/** A running server. */
export interface RunningServer {
  /** The address it listens on, as given. */
  hostname: string;
  /** The port it actually bound (resolved when `0` was asked). */
  port: number;
  /** Stops accepting connections, ends open ones, and resolves once closed. */
  close(): Promise<void>;
}

interface DenoServer {
  addr: { port: number };
  shutdown(): Promise<void>;
}
interface DenoLike {
  serve(
    options: {
      hostname: string;
      port: number;
      onListen?: (addr: { port: number }) => void;
    },
    handler: FetchHandler,
  ): DenoServer;
}
interface BunServer {
  port: number;
  stop(closeActiveConnections?: boolean): void | Promise<void>;
}
interface BunLike {
  serve(
    options: {
      hostname: string;
      port: number;
      idleTimeout?: number;
      fetch: FetchHandler;
    },
  ): BunServer;
}
interface NodeHttpServer {
  close(callback?: (err?: Error) => void): void;
  closeAllConnections?(): void;
  once(event: "error", listener: (err: Error) => void): void;
  requestTimeout: number;
  headersTimeout: number;
  keepAliveTimeout: number;
  setTimeout(ms: number): unknown;
}

/** The port asked for is taken by another process. */
export class AddressInUseError extends Error {
  /** The port that was asked for. */
  readonly port: number;
  /**
   * @param hostname The address asked for.
   * @param port The port asked for.
   * @param cause What the runtime threw.
   */
  constructor(hostname: string, port: number, cause: unknown) {
    super(`Port ${port} is in use on ${hostname}`, { cause });
    this.name = "AddressInUseError";
    this.port = port;
  }
}

function inUse(error: unknown): boolean {
  const e = error as { code?: unknown; name?: unknown; message?: unknown };
  return e?.code === "EADDRINUSE" || e?.name === "AddrInUse" ||
    (typeof e?.message === "string" &&
      /address already in use/i.test(e.message));
}

/**
 * Serves `handler` on the given address with whatever server the runtime has.
 *
 * @param handler Answers every request.
 * @param options Host and port (`0` picks a free port).
 * @returns The running server with its bound port.
 * @throws {AddressInUseError} When another process holds the port.
 * @throws {Error} When the address cannot be bound otherwise (not permitted).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serveHttp } from "./serve.ts";
 * const server = await serveHttp(() => new Response("hi"), { hostname: "127.0.0.1", port: 0 });
 * const res = await fetch(`http://127.0.0.1:${server.port}/`);
 * assert.equal(await res.text(), "hi");
 * await server.close();
 * ```
 */
export async function serveHttp(
  handler: FetchHandler,
  options: ListenOptions,
): Promise<RunningServer> {
  try {
    return await listen(handler, options);
  } catch (error) {
    if (inUse(error)) {
      throw new AddressInUseError(options.hostname, options.port, error);
    }
    throw error;
  }
}

async function listen(
  handler: FetchHandler,
  options: ListenOptions,
): Promise<RunningServer> {
  const g = globalThis as { Deno?: DenoLike; Bun?: BunLike };
  const { hostname, port } = options;
  if (g.Deno?.serve) {
    const deno = g.Deno;
    let bound = port;
    const server = deno.serve({
      hostname,
      port,
      onListen: (addr) => (bound = addr.port),
    }, (request) => handler(request));
    bound = server.addr?.port ?? bound;
    return { hostname, port: bound, close: () => server.shutdown() };
  }
  if (g.Bun?.serve) {
    const idle = options.idleTimeoutMs;
    const server = g.Bun.serve({
      hostname,
      port,
      ...(idle === undefined
        ? {}
        : { idleTimeout: Math.min(255, Math.max(1, Math.ceil(idle / 1000))) }),
      fetch: (request) => handler(request),
    });
    return {
      hostname,
      port: server.port,
      close: async () => {
        await server.stop(true);
      },
    };
  }
  const { serve } = await loadOptional(
    "@hono/node-server",
    "Serving HTTP on Node",
    () => import("@hono/node-server"),
  );
  return await new Promise<RunningServer>((resolve, reject) => {
    const server = serve(
      { fetch: (request: Request) => handler(request), hostname, port },
      (info) => {
        resolve({
          hostname,
          port: info.port,
          close: () =>
            new Promise<void>((done, fail) => {
              node.close((err) => (err ? fail(err) : done()));
              node.closeAllConnections?.();
            }),
        });
      },
    );
    const node = server as unknown as NodeHttpServer;
    node.once("error", reject);
    if (options.requestTimeoutMs !== undefined) {
      node.requestTimeout = options.requestTimeoutMs;
    }
    if (options.headersTimeoutMs !== undefined) {
      node.headersTimeout = options.headersTimeoutMs;
    }
    if (options.idleTimeoutMs !== undefined) {
      node.keepAliveTimeout = Math.min(options.idleTimeoutMs, 5_000);
      node.setTimeout(options.idleTimeoutMs);
    }
  });
}

/** The process's standard streams, for a server that speaks over stdio (MCP). */
export interface StandardStreams {
  stdin: Readable;
  stdout: Writable;
}

/**
 * The standard input and output streams of this process.
 *
 * @returns Node-style streams (Deno and Bun provide them through `node:process`).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { standardStreams } from "./serve.ts";
 * assert.equal(typeof standardStreams().stdout.write, "function");
 * ```
 */
export function standardStreams(): StandardStreams {
  return { stdin: process.stdin, stdout: process.stdout };
}
