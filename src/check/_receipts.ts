/**
 * Receipts of syntax checks, as Kiln keeps builds: the errors a grammar found
 * in some content, keyed by the content's sha256, the checker's identity
 * (grammar package, version, language) and the options, with the cuts of a
 * clean parse (see `_regions.ts`) where the grammar has them. Kept in memory
 * (least recently used first out) and, given a state folder, one small JSON
 * file each under `<state>/checks/`, so a later process reuses them too.
 *
 * @module
 */
import { sha256Hex as bytesSha256Hex } from "../_internal/sha256.ts";
import type { RawError } from "./_engine.ts";
import { StateFileSkipped, writeStateFile } from "../fs/state_file.ts";
import { ReceiptSeal } from "./_seal.ts";

/** A check's answer, as a receipt keeps it. */
export interface Answer {
  /** Errors of the parse (empty when it parsed clean). */
  errors: RawError[];
  /** Rows where a clean parse may be cut (see `_regions.ts`), when known. */
  cuts?: number[];
}

/** What a receipt holds. */
export interface Receipt extends Answer {
  /** The key it was stored under. */
  key: string;
  /** The state folder's seal of the key and the answer (`_seal.ts`). */
  seal: string;
}

/** An answer's members in one order, as seals cover them. */
function plain({ errors, cuts }: Answer): Answer {
  return cuts === undefined ? { errors } : { errors, cuts };
}

const encoder = new TextEncoder();

/**
 * The sha256 of a text, as hex.
 *
 * @param text Any text (hashed as UTF-8).
 * @returns 64 hex digits.
 */
export async function sha256Hex(text: string): Promise<string> {
  return await bytesSha256Hex(encoder.encode(text));
}

/** Most errors a parse keeps (a receipt listing more was not written by a checker). */
const MAX_RECEIPT_ERRORS = 50;
/** Largest receipt file read; a bigger one is not a receipt. */
const MAX_RECEIPT_BYTES = 64 * 1024;

function isErrors(value: unknown): value is RawError[] {
  return Array.isArray(value) && value.length <= MAX_RECEIPT_ERRORS &&
    value.every((e) =>
      e !== null && typeof e === "object" &&
      Number.isSafeInteger(e.line) && e.line >= 1 &&
      Number.isSafeInteger(e.column) && e.column >= 1 &&
      (e.kind === "missing" || e.kind === "unexpected") &&
      typeof e.token === "string" && e.token.length <= 200
    );
}

/** Most receipt files kept in a folder (the oldest go first). */
export const MAX_RECEIPT_FILES = 4096;
/**
 * The chance that a write prunes the folder: a CLI process writes once or
 * twice, so pruning cannot wait for a count of its own writes.
 */
const PRUNE_CHANCE = 1 / 64;

/** How a folder of receipts is kept bounded (tests set both). */
export interface ReceiptBounds {
  /** Most receipt files kept (default {@link MAX_RECEIPT_FILES}). */
  maxFiles?: number;
  /** The chance that a write prunes the folder (default 1/64). */
  pruneChance?: number;
}

/** Receipts in memory and, optionally, in a folder. */
export class Receipts {
  private readonly memory = new Map<string, Answer>();
  private readonly folder: string | null;
  private readonly maxEntries: number;
  private readonly maxFiles: number;
  private readonly pruneChance: number;
  private readonly seals: ReceiptSeal;
  private made = false;
  private readonly notice: ((message: string) => void) | undefined;

  /**
   * @param folder Where receipt files live (`<state>/checks`), or null for memory only.
   * @param maxEntries Most receipts kept in memory.
   * @param bounds How the folder is kept bounded.
   * @param notice Told why a receipt was not saved (a link, FIFO or device at its name).
   */
  constructor(
    folder: string | null,
    maxEntries: number,
    bounds: ReceiptBounds = {},
    notice?: (message: string) => void,
  ) {
    this.notice = notice;
    this.folder = folder;
    this.maxEntries = maxEntries;
    this.maxFiles = bounds.maxFiles ?? MAX_RECEIPT_FILES;
    this.pruneChance = bounds.pruneChance ?? PRUNE_CHANCE;
    this.seals = new ReceiptSeal(folder);
  }

  /**
   * The key of a check.
   *
   * @param contentSha The content's sha256.
   * @param identity The checker's identity.
   * @param options The options that change the answer.
   */
  async keyOf(
    contentSha: string,
    identity: string,
    options: string,
  ): Promise<string> {
    return await sha256Hex(`${identity}\n${options}\n${contentSha}`);
  }

  /**
   * The answer stored under `key`, from memory or the folder; null when
   * none, or when the file's seal is not this folder's (`_seal.ts`). Cuts
   * from the folder are the caller's to check against the text.
   */
  async get(key: string): Promise<Answer | null> {
    const hit = this.memory.get(key);
    if (hit) {
      this.memory.delete(key);
      this.memory.set(key, hit);
      return hit;
    }
    if (!this.folder) return null;
    try {
      const { lstatSync, readFileSync } = await import("../_runtime/fs.ts");
      const { join } = await import("node:path");
      const file = join(this.folder, `${key}.json`);
      // Not a regular small file (a FIFO, a folder, a huge file): not a receipt.
      // Read synchronously: a small file, and a short-lived process's first
      // asynchronous file call costs milliseconds under Deno.
      const info = lstatSync(file);
      if (!info.isFile() || info.size > MAX_RECEIPT_BYTES) return null;
      const body = JSON.parse(readFileSync(file, "utf8"));
      if (body?.key !== key || !isErrors(body.errors)) return null;
      const answer = plain(body);
      // Unsealed, or sealed with another folder's secret: not our answer.
      if (!await this.seals.verify(key, answer, body.seal)) return null;
      this.remember(key, answer);
      return answer;
    } catch {
      return null;
    }
  }

  /** Stores an answer under `key`; a receipt that cannot be saved only stays in memory. */
  async put(key: string, answer: Answer): Promise<void> {
    this.remember(key, answer);
    if (!this.folder) return;
    await this.write(key, answer);
  }

  private async write(key: string, answer: Answer): Promise<void> {
    try {
      const seal = await this.seals.seal(key, plain(answer));
      const { mkdirSync } = await import("../_runtime/fs.ts");
      const { join } = await import("node:path");
      // Synchronous, as reads are: a few KB, written without a flush.
      if (!this.made) {
        mkdirSync(this.folder!, { recursive: true });
        this.made = true;
      }
      // Through a temporary and a rename, never into what stands at the
      // name: a state folder that came with the repository may hold a
      // link or a FIFO at a predictable key (docs/workspace.md "State
      // folder"). A receipt that does not parse, names another key or
      // lacks this state folder's seal is a miss, never an answer.
      const receipt: Receipt = { key, ...plain(answer), seal };
      writeStateFile(
        join(this.folder!, `${key}.json`),
        JSON.stringify(receipt),
      );
    } catch (error) {
      // A receipt is a cache: losing one costs a parse, never a wrong answer.
      if (error instanceof StateFileSkipped) {
        this.notice?.(`A syntax-check receipt was not saved: ${error.message}`);
      }
    }
    if (Math.random() < this.pruneChance) await this.prune();
  }

  /**
   * Removes the oldest receipt files (by modification time) beyond three
   * quarters of the most kept, once the folder holds more than the most; so
   * the folder stays bounded however many edits are checked, and a prune
   * leaves room for many writes before the next.
   */
  private async prune(): Promise<void> {
    try {
      const { lstatSync, readdirSync, unlinkSync } = await import(
        "../_runtime/fs.ts"
      );
      const { join } = await import("node:path");
      const names = readdirSync(this.folder!).filter((n) =>
        n.endsWith(".json")
      );
      if (names.length <= this.maxFiles) return;
      const timeOf = (name: string) => {
        try {
          return lstatSync(join(this.folder!, name)).mtimeMs;
        } catch {
          return 0;
        }
      };
      const aged = names.map((name) => ({ name, time: timeOf(name) }));
      aged.sort((a, b) => a.time - b.time);
      const keep = Math.floor(this.maxFiles * 3 / 4);
      for (const { name } of aged.slice(0, aged.length - keep)) {
        try {
          unlinkSync(join(this.folder!, name));
        } catch {
          // Gone already, or not ours to remove: left as it is.
        }
      }
    } catch {
      // Pruning is housekeeping: a folder that cannot be listed stays as it is.
    }
  }

  private remember(key: string, answer: Answer): void {
    this.memory.delete(key);
    this.memory.set(key, answer);
    while (this.memory.size > this.maxEntries) {
      const oldest = this.memory.keys().next().value;
      if (oldest === undefined) break;
      this.memory.delete(oldest);
    }
  }
}
