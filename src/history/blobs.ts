/**
 * Content-addressed blobs beside the history log (`<state>/history/blobs/`):
 * the text an entry needs for undo beyond a small inline size is kept once
 * under its sha-256, however many entries refer to it (a delete and its
 * undo name the same content), so the log itself stays small.
 *
 * @module
 */
import { join } from "node:path";
import {
  closeSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readSync,
  statSync,
  unlinkSync,
} from "../_runtime/fs.ts";
import { touchHandle } from "../_runtime/host.ts";
import { processId } from "../_runtime/process.ts";
import { errnoOf } from "../_internal/errno.ts";
import { openStateFile } from "../fs/open_state.ts";
import { writeThroughTemp } from "../fs/state_file.ts";
import { syncFolder } from "../fs/sync_folder.ts";
import { HashlineError } from "../errors.ts";
import { sha256Hex } from "./record.ts";
import { lineHash32 } from "../hash/fnv.ts";
import { bare, segments } from "./hunks.ts";
import type { EntryRecord, Hunk } from "./types.ts";
import { INLINE_MAX, type KnownText, knownText, knowText } from "./_texts.ts";
import { pushAll } from "../_internal/arrays.ts";

export { carryKnown, INLINE_MAX, type KnownText, knowText } from "./_texts.ts";

/** Records {@link Blobs.remember} holds weakly, the newest. */
const RECENT_MAX = 16;
/** Blob identities {@link Blobs} keeps, the newest. */
const CHECKED_MAX = 256;

/** The fields of a file's status that any write changes. */
interface FileStatus {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

function identity(st: FileStatus): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

/** What names a stored record's content: its id and its blobs. */
function recordKey(stored: EntryRecord): string {
  return `${stored.id} ${blobsOf(stored).join(" ")}`;
}

const BLOB_FIELDS = ["old", "new", "before", "after"] as const;
type BlobField = typeof BLOB_FIELDS[number];

/** A hunk as the log keeps it: long text fields named by their blob. */
export interface StoredHunk extends Omit<Hunk, "hashes"> {
  /** Omitted when `new` is in a blob (the hashes are computed from it). */
  hashes?: number[];
  /** sha-256 of each text field kept in a blob (the field itself is `""`). */
  blobs?: Partial<Record<BlobField, string>>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

function fail(file: string, why: string): HashlineError {
  return new HashlineError(
    "HISTORY",
    `Cannot read the edit history: ${file} ${why}.`,
  );
}

/** The blobs of one history folder. */
export class Blobs {
  readonly dir: string;
  private made = false;

  /** @param historyDir The history folder. */
  constructor(historyDir: string) {
    this.dir = join(historyDir, "blobs");
  }

  /**
   * Records with their blobs' text in place, by id and blobs, for as long
   * as anything else holds them: showing an entry and then judging its
   * undo (the review page), or undoing an entry just committed, read its
   * blobs once.
   */
  private readonly recent = new Map<string, WeakRef<EntryRecord>>();

  /**
   * Each blob's identity (device, inode, size, times) when this process
   * last wrote, touched or read and checked it: a blob that still has it
   * holds what was checked then (any write moves its change time).
   */
  private readonly checked = new Map<string, string>();

  private note(sha: string, st: FileStatus): void {
    this.checked.delete(sha);
    this.checked.set(sha, identity(st));
    if (this.checked.size > CHECKED_MAX) {
      this.checked.delete(this.checked.keys().next().value!);
    }
  }

  /** Whether a blob is as this process last checked it. */
  private unchanged(sha: string): boolean {
    const was = this.checked.get(sha);
    if (was === undefined) return false;
    try {
      return identity(lstatSync(this.path(sha))) === was;
    } catch {
      return false;
    }
  }

  /**
   * The record {@link remember} kept under `key`, while it is still held
   * and each of its blobs is as it was checked.
   */
  recall(key: string, shas: readonly string[]): EntryRecord | undefined {
    const record = this.recent.get(key)?.deref();
    if (!record) this.recent.delete(key);
    return record && shas.every((sha) => this.unchanged(sha))
      ? record
      : undefined;
  }

  /** Keeps a weak hold of a record with its blobs' text in place. */
  remember(key: string, record: EntryRecord): void {
    this.recent.delete(key);
    this.recent.set(key, new WeakRef(record));
    if (this.recent.size > RECENT_MAX) {
      this.recent.delete(this.recent.keys().next().value!);
    }
  }

  /** The file of a blob. */
  path(sha: string): string {
    return join(this.dir, sha);
  }

  /**
   * Keeps `text` as a blob (flushed) unless it is kept already (then its
   * time is refreshed, so a prune's grace spares it).
   *
   * @returns Its sha-256, the bytes newly written (0 when it was kept) and its size.
   */
  async put(
    text: string,
    known?: KnownText,
  ): Promise<{ sha: string; added: number; size: number }> {
    let bytes: Uint8Array | undefined;
    let sha: string;
    if (known && "sha" in known) sha = known.sha;
    else {
      bytes = known?.bytes ?? encoder.encode(text);
      sha = await sha256Hex(bytes);
    }
    const size = bytes?.length ?? (known as { size: number }).size;
    const file = this.path(sha);
    if (!this.made) {
      mkdirSync(this.dir, { recursive: true });
      this.made = true;
    }
    try {
      const fd = openStateFile(file);
      try {
        if (fstatSync(fd).isFile() && fstatSync(fd).size === size) {
          touchHandle(fd);
          this.note(sha, fstatSync(fd));
          return { sha, added: 0, size };
        }
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      if (errnoOf(error) !== "ENOENT" && errnoOf(error) !== "ELOOP") {
        throw error;
      }
    }
    // Named by a blob that is gone (pruned meanwhile): written again.
    bytes ??= encoder.encode(text);
    writeThroughTemp(file, bytes, {
      flush: true,
      mode: 0o600,
      temp: `${file}.${processId()}-${
        Math.random().toString(16).slice(2, 10)
      }.tmp`,
    });
    syncFolder(this.dir);
    this.note(sha, lstatSync(file));
    return { sha, added: bytes.length, size };
  }

  /** The text of a blob, checked against its name. */
  async get(sha: string): Promise<string> {
    return (await this.read(sha)).text;
  }

  /** The text of a blob, checked against its name, and its size in bytes. */
  async read(sha: string): Promise<{ text: string; size: number }> {
    const file = this.path(sha);
    let fd: number;
    try {
      fd = openStateFile(file);
    } catch (error) {
      throw fail(
        file,
        errnoOf(error) === "ENOENT"
          ? "is missing (an entry needs it)"
          : `cannot be opened (${errnoOf(error) ?? "error"})`,
      );
    }
    let bytes: Uint8Array;
    let st: FileStatus & { isFile(): boolean };
    try {
      st = fstatSync(fd);
      if (!st.isFile()) throw fail(file, "is not a regular file");
      bytes = new Uint8Array(st.size);
      let at = 0;
      while (at < bytes.length) {
        const n = readSync(fd, bytes, at, bytes.length - at, at);
        if (n === 0) break;
        at += n;
      }
    } finally {
      closeSync(fd);
    }
    if (await sha256Hex(bytes) !== sha) {
      throw fail(file, "does not match its sha-256 (damaged)");
    }
    try {
      const text = decoder.decode(bytes);
      this.note(sha, st);
      return { text, size: bytes.length };
    } catch {
      throw fail(file, "is not UTF-8 (damaged)");
    }
  }

  /** The blobs kept, with their sizes and times. */
  list(): { sha: string; size: number; mtimeMs: number }[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    const out = [];
    for (const name of names) {
      if (!/^[0-9a-f]{64}$/.test(name)) continue;
      try {
        const st = statSync(join(this.dir, name));
        out.push({ sha: name, size: st.size, mtimeMs: st.mtimeMs });
      } catch {
        // Removed meanwhile.
      }
    }
    return out;
  }

  /** Removes a blob; one already gone is fine. */
  remove(sha: string): void {
    try {
      unlinkSync(this.path(sha));
    } catch {
      // Gone already.
    }
  }
}

/**
 * The record as the log keeps it: each hunk's text fields longer than
 * {@link INLINE_MAX} moved to blobs.
 *
 * @returns The stored record and the bytes of blobs newly written.
 */
export async function externalize(
  blobs: Blobs,
  record: EntryRecord,
): Promise<{ record: EntryRecord; added: number }> {
  let added = 0;
  const files = [];
  for (const f of record.files) {
    const hunks: StoredHunk[] = [];
    for (const h of f.hunks) {
      let out: StoredHunk | undefined;
      for (const k of BLOB_FIELDS) {
        const v = h[k];
        if (typeof v !== "string" || v.length <= INLINE_MAX) continue;
        out ??= copyHunk(h);
        const put = await blobs.put(
          v,
          k === "old" || k === "new" ? knownText(h, k) : undefined,
        );
        added += put.added;
        (out.blobs ??= {})[k] = put.sha;
        // From now on the text is known by its blob, not by bytes held.
        if (k === "old" || k === "new") {
          knowText(h, k, { sha: put.sha, size: put.size });
        }
        if (k === "before" || k === "after") out[k] = "";
        else out[k] = "";
        if (k === "new") delete out.hashes;
      }
      hunks.push(out ?? h);
    }
    files.push({ ...f, hunks: hunks as Hunk[] });
  }
  const stored = { ...record, files };
  if (blobsOf(stored).length > 0) blobs.remember(recordKey(stored), record);
  return { record: stored, added };
}

/**
 * A hunk's fields copied, without computing the hashes of a long `new`
 * (they are left out: the log recomputes them from its blob).
 */
function copyHunk(h: Hunk): StoredHunk {
  const out: Record<string, unknown> = {};
  const skipHashes = typeof h.new === "string" && h.new.length > INLINE_MAX;
  for (const key of Object.keys(h)) {
    if (key === "hashes" && skipHashes) continue;
    out[key] = (h as unknown as Record<string, unknown>)[key];
  }
  return out as unknown as StoredHunk;
}

/** The blobs a stored record names. */
export function blobsOf(record: EntryRecord): string[] {
  const out: string[] = [];
  for (const f of record.files) {
    for (const h of f.hunks as StoredHunk[]) {
      if (h.blobs) pushAll(out, Object.values(h.blobs) as string[]);
    }
  }
  return out;
}

/**
 * Gives a hunk whose `new` came from a blob its `hashes`, computed on first
 * use: an undo needs them, a view of a large change does not.
 */
function lazyHashes(h: Hunk): void {
  let cached: number[] | undefined;
  Object.defineProperty(h, "hashes", {
    enumerable: true,
    configurable: true,
    get: () =>
      cached ??= h.new === ""
        ? []
        : segments(h.new).map((s, k) => lineHash32(bare(s, h.newAt + k === 1))),
    set: (v: number[]) => {
      cached = v;
    },
  });
}

/** The record with every blob's text back in place (and the hashes of `new`). */
export async function internalize(
  blobs: Blobs,
  record: EntryRecord,
): Promise<EntryRecord> {
  if (blobsOf(record).length === 0) return record;
  const key = recordKey(record);
  const held = blobs.recall(key, blobsOf(record));
  if (held) return held;
  const files = [];
  for (const f of record.files) {
    const hunks: Hunk[] = [];
    for (const stored of f.hunks as StoredHunk[]) {
      if (!stored.blobs) {
        hunks.push(stored as Hunk);
        continue;
      }
      const h = { ...stored } as StoredHunk;
      const known: [BlobField, KnownText][] = [];
      for (const k of BLOB_FIELDS) {
        const sha = stored.blobs[k];
        if (sha === undefined) continue;
        const { text, size } = await blobs.read(sha);
        h[k] = text;
        known.push([k, { sha, size }]);
      }
      delete h.blobs;
      if (stored.blobs.new !== undefined) lazyHashes(h as Hunk);
      for (const [k, text] of known) {
        if (k === "old" || k === "new") knowText(h as Hunk, k, text);
      }
      hunks.push(h as Hunk);
    }
    files.push({ ...f, hunks });
  }
  const out = { ...record, files };
  blobs.remember(key, out);
  return out;
}
