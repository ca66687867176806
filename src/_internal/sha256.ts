/**
 * SHA-256 of bytes, for content stamps, history records and receipts.
 *
 * WebCrypto's `digest` is everywhere but answers through a promise that
 * crosses to another thread (about 50 µs for a few KB under Deno, most of
 * it the crossing). `node:crypto`'s hash is synchronous and about ten times
 * faster where the runtime has it, but loading it costs a short-lived
 * process more than it saves (about 17 ms under Deno). So every process
 * starts on WebCrypto, and one that has hashed {@link WARM_AFTER} times (a
 * server, not a one-shot command) takes `node:crypto` from the runtime
 * (`src/_runtime/builtin.ts`) and uses it from then on. Both give the same
 * digest.
 *
 * @module
 */
import { builtinModule } from "../_runtime/builtin.ts";
import { toHex } from "./bytes.ts";

/** Hashes answered by WebCrypto before `node:crypto` is taken up. */
export const WARM_AFTER = 8;

type Hasher = (bytes: Uint8Array) => Uint8Array;

// undefined: not tried yet; null: not available (edge runtimes).
let sync: Hasher | null | undefined;
let loading: Promise<void> | undefined;
let calls = 0;

function load(): Promise<void> {
  // After the hash that asked for it has been answered; a process that
  // cannot have node:crypto (an edge platform) keeps WebCrypto.
  return loading ??= Promise.resolve().then(() => {
    const createHash = builtinModule<{
      createHash?: (algorithm: string) => Hash;
    }>("crypto")?.createHash;
    if (typeof createHash !== "function") {
      sync = null;
      return;
    }
    sync = (bytes) =>
      new Uint8Array(createHash("sha256").update(bytes).digest());
  });
}

interface Hash {
  update(bytes: Uint8Array): Hash;
  digest(): Uint8Array;
}

/**
 * The SHA-256 digest of `bytes`.
 *
 * @param bytes What to hash.
 * @returns The 32-byte digest.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256 } from "./sha256.ts";
 * const d = await sha256(new TextEncoder().encode("abc"));
 * assert.equal(d[0], 0xba);
 * ```
 */
export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  const known = digests.get(bytes);
  if (known) return known.slice();
  let digest: Uint8Array;
  if (sync) digest = sync(bytes);
  else {
    if (sync === undefined && ++calls === WARM_AFTER) void load();
    digest = new Uint8Array(
      await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
    );
  }
  digests.set(bytes, digest.slice());
  return digest;
}

/**
 * The digest of each byte array hashed, for as long as the array lives: an
 * edit hashes the same content up to three times (its stamp, the digests
 * its history entry names, the session's record of it). Content held in
 * memory is never changed in place, so a kept digest stays true.
 */
const digests = new WeakMap<Uint8Array, Uint8Array>();

/**
 * Which hash answers now, and a promise that settles once the deferred
 * load (if started) has ended: for tests and benchmarks.
 */
export function sha256Engine(): {
  engine: "webcrypto" | "node:crypto";
  settled: Promise<void>;
} {
  return {
    engine: sync ? "node:crypto" : "webcrypto",
    settled: loading ?? Promise.resolve(),
  };
}

/**
 * The SHA-256 of `bytes` as 64 lowercase hex digits.
 *
 * @param bytes What to hash.
 * @returns The hex digest.
 */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return toHex(await sha256(bytes));
}
