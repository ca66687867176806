/**
 * Shared helpers of the serving tests: JSON requests against an app, temp
 * workspaces, and byte snapshots to prove refusals write nothing.
 */
import * as fs from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import type { HashlineApp } from "../../src/http/app.ts";

/** The answer to a request, with its JSON body parsed. */
export interface JsonAnswer {
  status: number;
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** Sends `body` as JSON (or a raw string) with `method` to `path`. */
export async function call(
  app: HashlineApp,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<JsonAnswer> {
  const init: RequestInit = {
    method,
    headers: { "content-type": "application/json", ...headers },
  };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const res = await app.request(path, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Plain text answers (revision sources) stay text.
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** A fresh temp folder with the given files; `cleanup` removes it. */
export async function tempTree(
  files: Record<string, string> = {},
): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await fs.realpath(
    await fs.mkdtemp(join(os.tmpdir(), "hashline-serve-")),
  );
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(join(dir, name, ".."), { recursive: true });
    await fs.writeFile(join(dir, name), content);
  }
  return { dir, cleanup: () => fs.rm(dir, { recursive: true, force: true }) };
}

/** Bytes of a file, for before/after comparisons. */
export function bytes(path: string): Promise<Uint8Array> {
  return fs.readFile(path);
}

/** Asserts the `{ ok: false, error: { code, message } }` shape and returns the error. */
export function errorOf(
  answer: JsonAnswer,
): { code: string; message: string; problems?: unknown[] } {
  const b = answer.body;
  if (
    !b || b.ok !== false || typeof b.error?.code !== "string" ||
    typeof b.error?.message !== "string"
  ) {
    throw new Error(
      `not an error answer: ${answer.status} ${JSON.stringify(b)}`,
    );
  }
  return b.error;
}
