/**
 * Process-level access (arguments, working folder, exit, standard streams,
 * signals) through `node:process`, which Deno, Bun and Node all provide.
 * Environment variables are read by `config.ts`, which imports no `node:*`
 * module, and re-exported here.
 *
 * @module
 */
import process from "node:process";

import { concatBytes } from "../_internal/bytes.ts";

export { getEnv } from "./config.ts";

/** The command-line arguments after the script name. */
export function getArgs(): string[] {
  return process.argv.slice(2);
}

/** The working folder. */
export function cwd(): string {
  return process.cwd();
}

/** Ends the process with a code once the standard streams are flushed. */
export function exit(code: number): never {
  process.exit(code);
}

/** Sets the exit code without ending the process. */
export function setExitCode(code: number): void {
  process.exitCode = code;
}

/** The part of Deno's standard streams used here, declared structurally. */
interface DenoStreams {
  stdout: { write(bytes: Uint8Array): Promise<number> };
  stderr: { write(bytes: Uint8Array): Promise<number> };
  stdin: { readable: ReadableStream<Uint8Array> };
}

// Deno's own streams skip building Node stream objects, which costs a
// command line several milliseconds per call.
const deno = (globalThis as { Deno?: DenoStreams }).Deno;
const encoder = new TextEncoder();

async function writeAll(
  sink: { write(bytes: Uint8Array): Promise<number> },
  bytes: Uint8Array,
): Promise<void> {
  while (bytes.length > 0) bytes = bytes.subarray(await sink.write(bytes));
}

function nodeWrite(
  stream: NodeJS.WriteStream,
  text: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (err) => (err ? reject(err) : resolve()));
  });
}

/** Writes text to standard output. */
export function writeStdout(text: string): Promise<void> {
  return deno
    ? writeAll(deno.stdout, encoder.encode(text))
    : nodeWrite(process.stdout, text);
}

/** Writes text to standard error. */
export function writeStderr(text: string): Promise<void> {
  return deno
    ? writeAll(deno.stderr, encoder.encode(text))
    : nodeWrite(process.stderr, text);
}

/** Reads all of standard input as bytes (empty when it is closed). */
export async function readStdin(): Promise<Uint8Array> {
  if (deno) {
    return new Uint8Array(
      await new Response(deno.stdin.readable).arrayBuffer(),
    );
  }
  const parts: Uint8Array[] = [];
  for await (const part of process.stdin) parts.push(part as Uint8Array);
  return concatBytes(parts);
}

/** Standard input and output as Web byte streams (Deno's own, where it runs). */
export interface ByteStdio {
  /** Standard input. */
  readable: ReadableStream<Uint8Array>;
  /** Writes all of `bytes` to standard output. */
  write(bytes: Uint8Array): Promise<void>;
}

/**
 * Deno's own standard input and output, or null on other runtimes. They skip
 * the Node stream objects that `node:process` builds over the same pipes,
 * which an MCP server pays for on every message.
 *
 * @returns The byte streams, or null outside Deno.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { byteStdio } from "./env.ts";
 * assert.equal(byteStdio() === null, !("Deno" in globalThis));
 * ```
 */
export function byteStdio(): ByteStdio | null {
  if (!deno) return null;
  const { stdin, stdout } = deno;
  return {
    readable: stdin.readable,
    write: (bytes) => writeAll(stdout, bytes),
  };
}

/** Registers a handler for SIGINT/SIGTERM (no-op where signals are not available). */
export function onShutdown(handler: () => void): void {
  try {
    process.once("SIGINT", handler);
    process.once("SIGTERM", handler);
  } catch {
    // Edge runtimes have no signals.
  }
}

/**
 * Whether the module with this `import.meta` is the program's entry point
 * (`import.meta.main` where the runtime has it, else a comparison with the
 * script path, for Node).
 */
export function isMainModule(meta: { url: string; main?: boolean }): boolean {
  if (typeof meta.main === "boolean") return meta.main;
  const script = process.argv[1];
  if (!script || !meta.url.startsWith("file:")) return false;
  // Compared as paths rather than through node:url, which a command line
  // would load for this one call.
  let path = decodeURIComponent(new URL(meta.url).pathname);
  if (/^\/[A-Za-z]:/.test(path)) path = path.slice(1);
  return path.replaceAll("\\", "/") ===
    script.replaceAll("\\", "/");
}
