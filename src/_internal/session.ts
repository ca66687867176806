/**
 * Session names (docs/workspace.md "Sessions"): the one rule every door —
 * the workspace, HTTP headers, the tool registry, MCP — judges them by.
 * A name is also a folder name in the state folder, so it must be safe as one.
 *
 * @module
 */
import { toHex } from "./bytes.ts";

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
 * @throws {TypeError} When the name is not safe, or has the form of a
 *   transport session's label that this process did not make.
 */
export function checkSession(name: unknown): string {
  if (isSessionLabel(name) && !minted.has(name as string)) {
    return checkClientSession(name, "Session");
  }
  if (!isSessionName(name)) {
    throw new TypeError(
      `Cannot use session ${
        JSON.stringify(name)
      }: a session name is 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit.`,
    );
  }
  return name as string;
}

/**
 * The form of a label that stands for a session the transport made (an
 * MCP connection or MCP-over-HTTP session): `mcp-` or `stdio-` and hex.
 * A client may not send a name of this form, so a label seen in the
 * history cannot be sent back as that session.
 */
export const SESSION_LABEL: RegExp = /^(?:mcp|stdio)-[0-9a-f]{6,}$/i;

// Labels this process made: only these pass `checkSession` in label form.
const minted = new Set<string>();
let secret: Promise<CryptoKey> | undefined;

/**
 * Whether a name has the form of a transport session's label.
 *
 * @param name The value.
 * @returns True for `mcp-` or `stdio-` followed by hex digits.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSessionLabel } from "./session.ts";
 * assert.equal(isSessionLabel("mcp-3f2a9c1d"), true);
 * assert.equal(isSessionLabel("agent-1"), false);
 * ```
 */
export function isSessionLabel(name: unknown): boolean {
  return typeof name === "string" && SESSION_LABEL.test(name);
}

/**
 * Makes the label of a session the transport made: `mcp-` and 8 hex digits
 * of an HMAC of the transport's id under a secret of this process, so the
 * label cannot be turned back into the id nor guessed from it. A label
 * already in use in this process is derived again with a counter.
 *
 * @param transportId The transport's own id (or any fresh random value).
 * @returns The label, accepted by {@link checkSession} in this process.
 */
export async function mintSessionLabel(transportId: string): Promise<string> {
  secret ??= crypto.subtle.importKey(
    "raw",
    crypto.getRandomValues(new Uint8Array(32)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const key = await secret;
  for (let n = 0;; n++) {
    const mac = await crypto.subtle.sign(
      "HMAC",
      key,
      new TextEncoder().encode(`${transportId}#${n}`),
    );
    const label = `mcp-${toHex(new Uint8Array(mac, 0, 4))}`;
    if (!minted.has(label)) {
      minted.add(label);
      return label;
    }
  }
}

/**
 * Forgets a label this process made (its session ended).
 *
 * @param label The label.
 */
export function releaseSessionLabel(label: string): void {
  minted.delete(label);
}

/**
 * Checks a session name sent by a client (a flag, a header, an option):
 * a safe name that is not of the label form.
 *
 * @param name The value.
 * @param what Where it came from, for the message (`Header "Hashline-Session"`).
 * @returns The name.
 * @throws {TypeError} When the name is not safe, or has the label form.
 */
export function checkClientSession(name: unknown, what: string): string {
  if (!isSessionName(name)) {
    throw new TypeError(
      `${what} must be 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit; got ${
        JSON.stringify(String(name).slice(0, 140))
      }.`,
    );
  }
  if (isSessionLabel(name)) {
    throw new TypeError(
      `${what} ${
        JSON.stringify(name)
      } has the form hashline gives sessions an MCP connection made ("mcp-" or "stdio-" and hex digits), which a client cannot take: choose another name, such as "agent-1".`,
    );
  }
  return name as string;
}
