/**
 * Seals on receipts (docs/syntax-checks.md, "Receipts"): a receipt read
 * from the state folder is an answer only when it carries an HMAC-SHA256 of
 * its key and its answer, made with this state folder's own secret
 * (`<state>/checks.key`, 32 random bytes, readable by its owner only).
 * A receipt written by hand, copied from another state folder or edited
 * after it was written (errors dropped, cuts made up) has no valid seal, and
 * is ignored: its cuts could make a check judge an edit by a region that
 * proves nothing, its errors could call broken code clean.
 *
 * @module
 */
import { toHex } from "../_internal/bytes.ts";

/** The secret's file name, after the receipts' folder (`checks.key`). */
export const SEAL_KEY_SUFFIX = ".key";
/** The secret's length in bytes (hex in its file). */
const KEY_BYTES = 32;

const encoder = new TextEncoder();

/** The text a seal covers: the receipt's key and its answer, as written. */
function sealed(key: string, answer: unknown): Uint8Array<ArrayBuffer> {
  return encoder.encode(`${key}\n${JSON.stringify(answer)}`);
}

/** Makes and checks the seals of one folder of receipts. */
export class ReceiptSeal {
  private readonly folder: string | null;
  private key?: Promise<CryptoKey>;

  /** @param folder The receipts' folder, or null (then a secret of this process only). */
  constructor(folder: string | null) {
    this.folder = folder;
  }

  /**
   * The seal of an answer stored under `key`.
   *
   * @param key The receipt's key.
   * @param answer The answer as the receipt holds it (errors, cuts).
   * @returns Hex digits.
   */
  async seal(key: string, answer: unknown): Promise<string> {
    const mac = await crypto.subtle.sign(
      "HMAC",
      await this.secret(),
      sealed(key, answer),
    );
    return toHex(new Uint8Array(mac));
  }

  /**
   * Whether `seal` is the seal of `answer` under `key`.
   *
   * @param key The receipt's key.
   * @param answer The answer as read.
   * @param seal What the receipt holds as its seal.
   * @returns True only for this folder's own seal of exactly that answer.
   */
  async verify(key: string, answer: unknown, seal: unknown): Promise<boolean> {
    if (typeof seal !== "string" || !/^[0-9a-f]{64}$/.test(seal)) return false;
    const bytes = new Uint8Array(KEY_BYTES);
    for (let i = 0; i < KEY_BYTES; i++) {
      bytes[i] = parseInt(seal.slice(2 * i, 2 * i + 2), 16);
    }
    return await crypto.subtle.verify(
      "HMAC",
      await this.secret(),
      bytes,
      sealed(key, answer),
    );
  }

  private secret(): Promise<CryptoKey> {
    return this.key ??= (async () => {
      const raw = await this.stored() ??
        crypto.getRandomValues(new Uint8Array(KEY_BYTES));
      return await crypto.subtle.importKey(
        "raw",
        raw,
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign", "verify"],
      );
    })();
  }

  /**
   * The folder's secret, made on first use; null when it can be neither read
   * nor made (then receipts on disk are never trusted by this process).
   */
  private async stored(): Promise<Uint8Array<ArrayBuffer> | null> {
    if (!this.folder) return null;
    try {
      const { lstatSync, mkdirSync, readFileSync, writeFileSync } =
        await import("../_runtime/fs.ts");
      const { dirname } = await import("node:path");
      const file = `${this.folder}${SEAL_KEY_SUFFIX}`;
      const read = (): Uint8Array<ArrayBuffer> | null => {
        const info = lstatSync(file);
        if (!info.isFile() || info.size !== 2 * KEY_BYTES) return null;
        const hex = readFileSync(file, "utf8");
        if (!/^[0-9a-f]+$/.test(hex)) return null;
        const out = new Uint8Array(KEY_BYTES);
        for (let i = 0; i < KEY_BYTES; i++) {
          out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
        }
        return out;
      };
      try {
        return read();
      } catch {
        // None yet: made below, unless another process makes it first.
      }
      const fresh = crypto.getRandomValues(new Uint8Array(KEY_BYTES));
      mkdirSync(dirname(file), { recursive: true });
      try {
        writeFileSync(file, toHex(fresh), { flag: "wx", mode: 0o600 });
        return fresh;
      } catch {
        return read();
      }
    } catch {
      return null;
    }
  }
}
