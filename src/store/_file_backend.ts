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
 * A temp file's name says who writes it: the host-and-namespace mark and the
 * pid of its writer. Before each put, temps whose writer is provably dead
 * (same mark, pid gone) are removed; temps of writers this process cannot
 * probe (another machine, container or boot) only once they are older than
 * a generous lease. A live writer's temp is never removed.
 *
 * Operating-system failures (a full disk, a read-only folder, too many open
 * files) come out as typed refusals through the one errno map, after the
 * temp is removed: nothing half-written stays behind.
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
import { processAlive, processId } from "../_runtime/process.ts";
import { writerMark } from "../_runtime/open.ts";
import { mapFsError } from "../_internal/errno.ts";
import { toHex } from "../_internal/bytes.ts";
import { IntegrityError } from "../errors.ts";
import { syncFolder } from "../fs/sync_folder.ts";
import type { Backend, HandleRecord } from "./_backend.ts";
import { refOf } from "./_ref.ts";

const REF_RE = /^sha256:[0-9a-f]{64}$/;
const OPS = new Set(["put", "edit", "patch"]);
/**
 * A temp file whose writer cannot be probed (another host, PID namespace or
 * boot, or an older name) is taken as abandoned once it is this old; a
 * publish takes milliseconds.
 */
const TEMP_LEASE_MS = 60 * 60 * 1000;

/** `w1-<mark>-<pid>-<time>-<random>.tmp`: the writer's mark and pid. */
const TEMP_NAME = /^w1-([A-Za-z0-9]+)-(\d+)-[0-9a-z]+-[0-9a-f]+\.tmp$/;

/** What a failed store write says, before the reason (no path: it may reach a client). */
const SAVE = "Cannot save the revision to the store";

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
    try {
      await Promise.all(
        ["objects", "handles", "tmp"].map((d) =>
          mkdir(join(this.#dir, d), { recursive: true })
        ),
      );
    } catch (e) {
      throw mapFsError(e, "Cannot open the revision store folder");
    }
    await this.#sweepTemp();
  }

  async readObject(ref: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(this.#objectPath(ref)));
    } catch (e) {
      if (isCode(e, "ENOENT")) return undefined;
      throw mapFsError(e, "Cannot read the revision from the store");
    }
  }

  async hasObject(ref: string): Promise<boolean> {
    try {
      await stat(this.#objectPath(ref));
      return true;
    } catch (e) {
      if (isCode(e, "ENOENT")) return false;
      throw mapFsError(e, "Cannot read the revision from the store");
    }
  }

  async writeObject(ref: string, bytes: Uint8Array): Promise<void> {
    // Each put first clears what dead writers left (see the module notes).
    await this.#sweepTemp();
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
      throw mapFsError(e, "Cannot read the handle from the store");
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
   * Writes bytes to a temp file, flushes it, and links it to `path`. The
   * temp is removed whatever happens.
   *
   * @returns false when `path` already existed (it is left as it was).
   * @throws {NoSpaceError | PermissionError | HashlineError} A full disk, a
   *   read-only or forbidden folder, or too many open files (`BUSY`).
   */
  async #publish(
    path: string,
    bytes: Uint8Array,
    kind: string,
  ): Promise<boolean> {
    const temp = join(this.#dir, "tmp", tempName());
    let linking = false;
    try {
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
      await this.#onStep?.(`${kind}:temp`);
      linking = true;
      try {
        await link(temp, path);
      } catch (e) {
        if (!isCode(e, "ENOENT")) throw e;
        await mkdir(join(path, ".."), { recursive: true });
        await link(temp, path);
      }
      await this.#onStep?.(`${kind}:linked`);
      syncFolder(join(path, ".."));
      return true;
    } catch (e) {
      if (isCode(e, "EEXIST")) return false;
      const code = (e as { code?: string }).code ?? "";
      // EPERM from link(2) means the file system has no hard links.
      if (
        linking &&
        ["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"].includes(code)
      ) {
        throw new Error(
          `Cannot publish ${path}: the file system of the store folder does not allow hard links (${code}), which the store needs to publish safely. Keep the store on a local disk (set HASHLINE_STORE).`,
        );
      }
      throw mapFsError(e, SAVE);
    } finally {
      await unlink(temp).catch(() => {});
    }
  }

  /**
   * Removes temp files that writers which stopped (crashed) left behind:
   * at once when the writer is provably dead, otherwise after the lease.
   */
  async #sweepTemp(): Promise<void> {
    const dir = join(this.#dir, "tmp");
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (e) {
      if (isCode(e, "ENOENT")) return;
      throw mapFsError(e, SAVE);
    }
    if (names.length === 0) return;
    const mine = writerMark();
    const self = processId();
    const cutoff = Date.now() - TEMP_LEASE_MS;
    for (const name of names) {
      const p = join(dir, name);
      try {
        const m = TEMP_NAME.exec(name);
        const pid = m ? Number(m[2]) : 0;
        const dead = m !== null && m[1] === mine && pid !== self &&
          !processAlive(pid);
        if (dead || (await stat(p)).mtimeMs < cutoff) await unlink(p);
      } catch {
        // Another process swept it first.
      }
    }
  }
}

/** A temp name naming its writer (see {@link TEMP_NAME}). */
function tempName(): string {
  const r = crypto.getRandomValues(new Uint8Array(8));
  return `w1-${writerMark()}-${processId()}-${Date.now().toString(36)}-${
    toHex(r)
  }.tmp`;
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
