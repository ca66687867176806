/**
 * The {@link Backend} primitives over a folder shared by several processes.
 *
 * Layout: `objects/<2 hex>/<64 hex>` holds the exact bytes of a ref;
 * `handles/<2 hex>/p_<hex>` holds the JSON record of a handle (its ref and
 * the revision's lineage); `tmp/` holds files being written. A file is
 * written in `tmp/`, flushed, and published with a hard link, which fails
 * when the name exists: the first writer wins, no reader ever sees half a
 * file, and a published name is never replaced. Nothing outside `tmp/` is
 * ever removed.
 *
 * @module
 */
import { join } from "node:path";
import {
  link,
  mkdir,
  open,
  readdir,
  readFile,
  stat,
  unlink,
} from "../_runtime/fs.ts";
import { IntegrityError } from "../errors.ts";
import type { Backend, HandleRecord } from "./_backend.ts";
import { refOf } from "./_ref.ts";

const REF_RE = /^sha256:[0-9a-f]{64}$/;
const OPS = new Set(["put", "edit", "patch"]);
/** Temp files older than this are left over from a writer that stopped. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/** Test hooks: called at each step of a publish, so a test can kill the process there. */
export interface FileBackendOptions {
  /** Called with `object:half`, `object:temp`, `object:linked`, `handle:half`, `handle:temp`, `handle:linked`. */
  onStep?: (step: string) => void | Promise<void>;
}

/** Objects and handles as files, published by hard link. */
export class FileBackend implements Backend {
  readonly #dir: string;
  readonly #onStep: ((step: string) => void | Promise<void>) | undefined;
  readonly #encoder = new TextEncoder();

  constructor(dir: string, options: FileBackendOptions = {}) {
    this.#dir = dir;
    this.#onStep = options.onStep;
  }

  async init(): Promise<void> {
    await Promise.all(
      ["objects", "handles", "tmp"].map((d) =>
        mkdir(join(this.#dir, d), { recursive: true })
      ),
    );
    await this.#sweepTemp();
  }

  async readObject(ref: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(this.#objectPath(ref)));
    } catch (e) {
      if (isCode(e, "ENOENT")) return undefined;
      throw e;
    }
  }

  async hasObject(ref: string): Promise<boolean> {
    try {
      await stat(this.#objectPath(ref));
      return true;
    } catch (e) {
      if (isCode(e, "ENOENT")) return false;
      throw e;
    }
  }

  async writeObject(ref: string, bytes: Uint8Array): Promise<void> {
    const path = this.#objectPath(ref);
    if (
      await this.hasObject(ref) || !(await this.#publish(path, bytes, "object"))
    ) {
      const have = await this.readObject(ref);
      if (have === undefined || (await refOf(have)) !== ref) {
        throw new IntegrityError(
          `The stored object ${path} does not match its ref ${ref}: the store is damaged (append-only, so it is not repaired).`,
        );
      }
    }
  }

  async readHandle(handle: string): Promise<HandleRecord | undefined> {
    const path = this.#handlePath(handle);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (e) {
      if (isCode(e, "ENOENT")) return undefined;
      throw e;
    }
    let rec: unknown;
    try {
      rec = JSON.parse(text);
    } catch {
      rec = undefined;
    }
    if (!isRecord(rec)) {
      throw new IntegrityError(
        `The handle file ${path} is damaged: it does not hold a handle record.`,
      );
    }
    return rec;
  }

  async claimHandle(record: HandleRecord): Promise<HandleRecord | undefined> {
    const body = this.#encoder.encode(JSON.stringify(record) + "\n");
    if (await this.#publish(this.#handlePath(record.handle), body, "handle")) {
      return record;
    }
    return await this.readHandle(record.handle);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  #objectPath(ref: string): string {
    const hex = ref.slice(7);
    return join(this.#dir, "objects", hex.slice(0, 2), hex);
  }

  #handlePath(handle: string): string {
    return join(this.#dir, "handles", handle.slice(2, 4), handle);
  }

  /**
   * Writes bytes to a temp file, flushes it, and links it to `path`.
   *
   * @returns false when `path` already existed (it is left as it was).
   */
  async #publish(
    path: string,
    bytes: Uint8Array,
    kind: string,
  ): Promise<boolean> {
    const temp = join(this.#dir, "tmp", tempName());
    const file = await open(temp, "wx", 0o444);
    try {
      if (this.#onStep) {
        await file.write(bytes.subarray(0, bytes.length >> 1));
        await this.#onStep(`${kind}:half`);
        await file.write(bytes.subarray(bytes.length >> 1));
      } else {
        await file.writeFile(bytes);
      }
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await this.#onStep?.(`${kind}:temp`);
      try {
        await link(temp, path);
      } catch (e) {
        if (!isCode(e, "ENOENT")) throw e;
        await mkdir(join(path, ".."), { recursive: true });
        await link(temp, path);
      }
      await this.#onStep?.(`${kind}:linked`);
      await syncDir(join(path, ".."));
      return true;
    } catch (e) {
      if (isCode(e, "EEXIST")) return false;
      const code = (e as { code?: string }).code ?? "";
      if (
        ["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"].includes(code)
      ) {
        throw new Error(
          `Cannot publish ${path}: the file system of the store folder does not allow hard links (${code}), which the store needs to publish safely. Keep the store on a local disk (set HASHLINE_STORE).`,
        );
      }
      throw e;
    } finally {
      await unlink(temp).catch(() => {});
    }
  }

  /** Removes temp files that writers which stopped (crashed) left behind. */
  async #sweepTemp(): Promise<void> {
    const dir = join(this.#dir, "tmp");
    const cutoff = Date.now() - STALE_TEMP_MS;
    for (const name of await readdir(dir)) {
      try {
        const p = join(dir, name);
        if ((await stat(p)).mtimeMs < cutoff) await unlink(p);
      } catch {
        // Another process swept it first.
      }
    }
  }
}

/** Flushes a folder's entries so a published name survives a power cut (best effort). */
async function syncDir(path: string): Promise<void> {
  try {
    const dir = await open(path, "r");
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // Some platforms cannot open or flush a folder; the file itself was flushed.
  }
}

function tempName(): string {
  const r = crypto.getRandomValues(new Uint8Array(8));
  return Date.now().toString(36) + "-" +
    Array.from(r, (b) => b.toString(16).padStart(2, "0")).join("") +
    ".tmp";
}

function isCode(e: unknown, code: string): boolean {
  return (e as { code?: string } | null)?.code === code;
}

function isRecord(v: unknown): v is HandleRecord {
  if (v === null || typeof v !== "object") return false;
  const r = v as Record<string, unknown>;
  return typeof r.handle === "string" && typeof r.ref === "string" &&
    REF_RE.test(r.ref) &&
    (r.parentRef === null ||
      (typeof r.parentRef === "string" && REF_RE.test(r.parentRef))) &&
    typeof r.op === "string" && OPS.has(r.op) &&
    typeof r.createdAt === "string";
}
