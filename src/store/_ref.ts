/**
 * Refs, handles and the checks every source passes before it is stored.
 *
 * @module
 */
import { sha256Hex } from "../_internal/sha256.ts";
import { TooLargeError } from "../errors.ts";
import { HANDLE_HEX, HANDLE_STEP, MAX_SOURCE_BYTES } from "./limits.ts";

const REF_RE = /^sha256:[0-9a-f]{64}$/;
const HANDLE_RE = /^p_[0-9a-f]{1,64}$/;
const UNPAIRED_RE =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const encoder = new TextEncoder();

/**
 * Index of the first unpaired surrogate, or -1.
 *
 * @param text Any string.
 */
export function unpairedSurrogateAt(text: string): number {
  const m = UNPAIRED_RE.exec(text);
  return m ? m.index : -1;
}

/**
 * The exact UTF-8 bytes of a source the store will take.
 *
 * @param source Candidate source.
 * @param what How to name it in messages ("Source", "The edited source", …).
 * @throws {TypeError} Not a string, or holds an unpaired surrogate.
 * @throws {TooLargeError} Over 1 MiB of UTF-8.
 */
export function sourceBytes(source: unknown, what = "Source"): Uint8Array {
  if (typeof source !== "string") {
    throw new TypeError(`${what} must be a string, got ${describe(source)}.`);
  }
  // Every UTF-16 unit is at least one UTF-8 byte, so this refuses without encoding.
  if (source.length > MAX_SOURCE_BYTES) {
    throw tooLarge(what, source.length, true);
  }
  const bad = unpairedSurrogateAt(source);
  if (bad !== -1) {
    throw new TypeError(
      `${what} holds an unpaired surrogate (U+${
        source.charCodeAt(bad).toString(16).toUpperCase()
      }) at UTF-16 index ${bad}; it is not valid Unicode text and cannot be stored as UTF-8.`,
    );
  }
  const bytes = encoder.encode(source);
  if (bytes.length > MAX_SOURCE_BYTES) {
    throw tooLarge(what, bytes.length, false);
  }
  return bytes;
}

function tooLarge(what: string, n: number, atLeast: boolean): TooLargeError {
  return new TooLargeError(
    `${what} is ${
      atLeast ? "at least " : ""
    }${n} bytes of UTF-8; the store takes at most ${MAX_SOURCE_BYTES} bytes (1 MiB) per source. Store a smaller part, or edit the file in place with a hashline patch.`,
  );
}

/**
 * `sha256:` + 64 lowercase hex of the bytes.
 *
 * @param bytes Exact UTF-8 bytes.
 */
export async function refOf(bytes: Uint8Array): Promise<string> {
  return `sha256:${await sha256Hex(bytes)}`;
}

/** A parsed `refOrHandle` argument. */
export type ParsedId = { kind: "ref"; ref: string } | {
  kind: "handle";
  handle: string;
};

/**
 * Parses a ref or a handle.
 *
 * @param id What the caller sent.
 * @param startHex Hex digits of a first handle (12 outside tests).
 * @throws {TypeError} Neither a well-formed ref nor a well-formed handle.
 */
export function parseId(id: unknown, startHex = HANDLE_HEX): ParsedId {
  if (typeof id === "string") {
    if (REF_RE.test(id)) return { kind: "ref", ref: id };
    if (HANDLE_RE.test(id) && handleLengths(startHex).includes(id.length - 2)) {
      return { kind: "handle", handle: id };
    }
  }
  throw new TypeError(
    `Expected a ref ("sha256:" + 64 lowercase hex) or a handle ("p_" + ${startHex} or more lowercase hex, as put returned it), got ${
      typeof id === "string"
        ? JSON.stringify(id.length > 80 ? id.slice(0, 80) + "…" : id)
        : describe(id)
    }.`,
  );
}

/**
 * Hex lengths a handle may have: the first, then 4 more at a time, up to 64.
 *
 * @param startHex Hex digits of a first handle.
 */
export function handleLengths(startHex = HANDLE_HEX): number[] {
  const out: number[] = [];
  for (let n = startHex; n < 64; n += HANDLE_STEP) out.push(n);
  out.push(64);
  return out;
}

/**
 * The handles a ref may get, in the order they are tried.
 *
 * @param ref A well-formed ref.
 * @param startHex Hex digits of a first handle.
 */
export function handleCandidates(ref: string, startHex = HANDLE_HEX): string[] {
  const hex = ref.slice("sha256:".length);
  return handleLengths(startHex).map((n) => "p_" + hex.slice(0, n));
}

/** Names the type of a wrong argument for a message. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}
