/**
 * Session names (docs/workspace.md "Sessions"): the one rule every door —
 * the workspace, HTTP headers, the tool registry, MCP — judges them by.
 * A name is also a folder name in the state folder, so it must be safe as one.
 *
 * @module
 */

/** 1–128 letters, digits, `.`, `_` or `-`, starting with a letter or digit. */
export const SESSION_NAME: RegExp = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Whether a value is a safe session name.
 *
 * @param name The value.
 * @returns True for 1–128 letters, digits, `.`, `_` or `-` starting with a letter or digit.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSessionName } from "./session.ts";
 * assert.equal(isSessionName("agent-1"), true);
 * assert.equal(isSessionName("../x"), false);
 * ```
 */
export function isSessionName(name: unknown): boolean {
  return typeof name === "string" && SESSION_NAME.test(name);
}

/**
 * Checks a session name (see {@link isSessionName}).
 *
 * @param name The value.
 * @returns The name.
 * @throws {TypeError} When the name is not safe.
 */
export function checkSession(name: unknown): string {
  if (!isSessionName(name)) {
    throw new TypeError(
      `Cannot use session ${
        JSON.stringify(name)
      }: a session name is 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit.`,
    );
  }
  return name as string;
}
