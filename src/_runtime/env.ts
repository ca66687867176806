/**
 * Process-level access (environment, arguments, exit, standard streams)
 * through `node:process`, which Deno, Bun and Node all provide.
 *
 * @module
 */
import process from "node:process";
import { pathToFileURL } from "node:url";

/** Reads an environment variable; undefined when unset or not permitted. */
export function getEnv(name: string): string | undefined {
  try {
    return process.env[name];
  } catch {
    return undefined;
  }
}

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

/** Writes text to standard output. */
export function writeStdout(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (err) => (err ? reject(err) : resolve()));
  });
}

/** Writes text to standard error. */
export function writeStderr(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stderr.write(text, (err) => (err ? reject(err) : resolve()));
  });
}

/** Reads all of standard input as bytes. */
export async function readStdin(): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of process.stdin) parts.push(part as Uint8Array);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
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
  if (!script) return false;
  return pathToFileURL(script).href === meta.url;
}
