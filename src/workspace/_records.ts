/**
 * Read records (docs/workspace.md "Read records"): per session and per real
 * path, the full 32-bit hash of every line the session was shown.
 *
 * Long-lived processes keep them in memory; each file's record is also
 * written on its own to `<state>/sessions/<session>/<digest>.rec` in a
 * compact binary form, so separate CLI calls form one session, a call costs
 * only the records of the files it touches, and loading one file's record
 * never parses another's. A session keeps at most a capped number of files
 * (the least recently used go first).
 *
 * @module
 */
import { join } from "node:path";
import {
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readdir,
  readFileSync,
  readSync,
  renameSync,
  rm,
  rmSync,
  stat,
  unlink,
  writeFileSync,
  writeSync,
} from "../_runtime/fs.ts";
import { processAlive, processId } from "../_runtime/process.ts";
import { sameBytes } from "./_io.ts";
import { LineMemory } from "../patch/memory.ts";

export { LineMemory };

const SESSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Checks a session name: letters, digits, `.`, `_`, `-`, up to 128
 * characters, starting with a letter or digit (so it is a safe file name).
 *
 * @throws {TypeError} When the name is not safe.
 */
export function checkSession(name: unknown): string {
  if (typeof name !== "string" || !SESSION_NAME.test(name)) {
    throw new TypeError(
      `Cannot use session ${
        JSON.stringify(name)
      }: a session name is 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit.`,
    );
  }
  return name;
}

const MAGIC = 0x3152_4c48; // "HLR1" read little-endian

/** Encodes one file's record: magic, path, runs of (start, count, hashes). */
export function encodeRecord(real: string, mem: LineMemory): Uint8Array {
  const path = new TextEncoder().encode(real);
  const runs = mem.toJSON();
  let words = 4 + Math.ceil(path.length / 4);
  for (const [, hashes] of runs) words += 2 + hashes.length;
  const out = new Uint32Array(words);
  out[0] = MAGIC;
  out[1] = path.length;
  new Uint8Array(out.buffer).set(path, 8);
  let at = 2 + Math.ceil(path.length / 4);
  out[at++] = mem.lineCount === undefined ? 0 : mem.lineCount + 1;
  out[at++] = runs.length;
  for (const [start, hashes] of runs) {
    out[at++] = start;
    out[at++] = hashes.length;
    out.set(hashes, at);
    at += hashes.length;
  }
  const bytes = new Uint8Array(out.buffer);
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
    // Big-endian host: store little-endian so records move between machines.
    const view = new DataView(out.buffer);
    for (let i = 0; i < words; i++) view.setUint32(i * 4, out[i], true);
  }
  return bytes;
}

/** Decodes {@link encodeRecord}'s bytes; null when they are damaged or belong to another path. */
export function decodeRecord(
  bytes: Uint8Array,
  real: string,
): LineMemory | null {
  if (bytes.length < 12 || bytes.length % 4 !== 0) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const words = bytes.length / 4;
  const word = (i: number) => view.getUint32(i * 4, true);
  if (word(0) !== MAGIC) return null;
  const pathLen = word(1);
  const pathWords = Math.ceil(pathLen / 4);
  if (2 + pathWords + 2 > words) return null;
  const path = new TextDecoder().decode(bytes.subarray(8, 8 + pathLen));
  if (path !== real) return null;
  let at = 2 + pathWords;
  const lineCount = word(at++);
  const count = word(at++);
  const runs: [number, number[]][] = [];
  for (let r = 0; r < count; r++) {
    if (at + 2 > words) return null;
    const start = word(at++);
    const n = word(at++);
    if (start < 1 || at + n > words) return null;
    const hashes = new Array<number>(n);
    for (let i = 0; i < n; i++) hashes[i] = word(at + i);
    at += n;
    runs.push([start, hashes]);
  }
  if (at !== words) return null;
  const mem = LineMemory.fromJSON(runs);
  if (lineCount > 0) mem.lineCount = lineCount - 1;
  return mem;
}

/**
 * A record file is the encoded record behind a 4-word header: magic,
 * generation (random per save), the record's length in words, and a
 * checksum of the record. A file that already holds a record is updated in
 * place (one write into the existing file, no new file and no rename, which
 * on ext4 costs a flush of the new data); the generation tells a reader in
 * another process that it changed, and the checksum lets a reader that met
 * a half-done update (or a crash mid-way) treat it as unreadable rather
 * than trust it. Bytes past the record's length are ignored.
 */
const FILE_MAGIC = 0x3252_4c48; // "HLR2" read little-endian
const HEAD_BYTES = 16;

function checksum(body: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < body.length; i++) {
    h = Math.imul(h ^ body[i], 0x01000193);
  }
  return h >>> 0;
}

function randomGeneration(): number {
  return (crypto.getRandomValues(new Uint32Array(1))[0] | 1) >>> 0;
}

/** The whole file for one record: header, then the record. */
function wrapRecord(body: Uint8Array, generation: number): Uint8Array {
  const out = new Uint8Array(HEAD_BYTES + body.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, FILE_MAGIC, true);
  view.setUint32(4, generation, true);
  view.setUint32(8, body.length / 4, true);
  view.setUint32(12, checksum(body), true);
  out.set(body, HEAD_BYTES);
  return out;
}

/** The record inside a file's bytes, or null when the header or checksum does not hold. */
function unwrapRecord(
  bytes: Uint8Array,
): { body: Uint8Array; generation: number } | null {
  if (bytes.length < HEAD_BYTES) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  if (view.getUint32(0, true) !== FILE_MAGIC) return null;
  const end = HEAD_BYTES + view.getUint32(8, true) * 4;
  if (end > bytes.length) return null;
  const body = bytes.subarray(HEAD_BYTES, end);
  if (checksum(body) !== view.getUint32(12, true)) return null;
  return { body, generation: view.getUint32(4, true) };
}

interface Cached {
  mem: LineMemory;
  /** Generation of the record file as last read or written (null: not on disk). */
  stamp: string | null | undefined;
  /** The record the file held at `stamp`, when this process read or wrote it. */
  saved?: Uint8Array;
  /** The file's length then. */
  size?: number;
}

/** Read records of every session of a workspace. */
export class SessionRecords {
  private readonly dir: string | null;
  private readonly maxFiles: number;
  private readonly sessions = new Map<string, Map<string, Cached>>();
  private readonly names = new Map<string, string>();
  /** Session folders this process made or found (made again if one is removed). */
  private readonly made = new Set<string>();
  private added = 0;

  /**
   * @param dir Folder for the records, or null to keep them in memory only.
   * @param maxFiles Most files one session remembers.
   */
  constructor(dir: string | null, maxFiles = 2000) {
    this.dir = dir;
    this.maxFiles = maxFiles;
  }

  /** The record of one file for a session, or undefined when the session never read it (or it was dropped). */
  async get(session: string, real: string): Promise<LineMemory | undefined> {
    const files = this.files(session);
    const cached = files.get(real);
    if (this.dir === null) {
      if (cached) this.touch(files, real, cached);
      return cached?.mem;
    }
    const file = await this.fileOf(session, real);
    const stamp = generationOf(file);
    // A state folder that cannot be looked at keeps what this process knows.
    if (cached && (cached.stamp === stamp || stamp === undefined)) {
      this.touch(files, real, cached);
      return cached.mem;
    }
    if (stamp === null || stamp === undefined) {
      files.delete(real);
      return undefined;
    }
    let bytes: Uint8Array | null = null;
    try {
      bytes = readFileSync(file);
    } catch {
      // Gone since the look: the session did not read it (any more).
    }
    const record = bytes ? unwrapRecord(bytes) : null;
    const mem = record ? decodeRecord(record.body, real) : null;
    if (!mem || !record) {
      // Met mid-update by another process, or damaged: what this process
      // knows still holds; without it, the file must be read again.
      if (cached && bytes) {
        this.touch(files, real, cached);
        return cached.mem;
      }
      files.delete(real);
      return undefined;
    }
    this.touch(files, real, {
      mem,
      stamp: String(record.generation),
      saved: record.body,
      size: bytes!.length,
    });
    this.trim(session, files);
    return mem;
  }

  /** Replaces the record of one file for a session (in memory, and on disk when persisted). */
  async put(session: string, real: string, mem: LineMemory): Promise<void> {
    const files = this.files(session);
    const prev = files.get(real);
    const cached: Cached = { mem, stamp: null };
    this.touch(files, real, cached);
    const dropped = this.trim(session, files);
    if (this.dir === null) return;
    const file = await this.fileOf(session, real);
    const body = encodeRecord(real, mem);
    // What this process last read or wrote there (a read or patch has just
    // checked, with its get, that the file still holds it).
    const known = prev !== undefined && typeof prev.stamp === "string" &&
        prev.saved !== undefined
      ? prev
      : undefined;
    if (known && sameBytes(known.saved!, body)) {
      // A read that shows nothing new (the common re-read before an edit)
      // leaves the file, which holds these very bytes, as it is. Had another
      // process saved the file since, its save is the later one and stands.
      cached.stamp = known.stamp;
      cached.saved = known.saved;
      cached.size = known.size;
    } else {
      const generation = randomGeneration();
      const bytes = wrapRecord(body, generation);
      // Updated in place when the file exists and the record does not
      // shrink; else written beside it and renamed over it. (What another
      // process saved meanwhile is overwritten either way: the later save
      // wins, and bytes past the record's length are ignored.)
      if (
        !(known && bytes.length >= (known.size ?? Infinity) &&
          overwrite(file, bytes))
      ) {
        const tmp = `${file}.${processId()}.${
          Math.random().toString(36).slice(2)
        }.tmp`;
        try {
          this.writeTemp(session, tmp, bytes);
          renameSync(tmp, file);
        } catch (error) {
          rmSync(tmp, { force: true });
          throw error;
        }
      }
      cached.stamp = String(generation);
      cached.saved = body;
      cached.size = bytes.length;
    }
    for (const gone of dropped) {
      await unlink(await this.fileOf(session, gone)).catch(() => {});
    }
    // Counted once per file this process adds (the cap is enforced on disk every 64).
    if (!prev && ++this.added % 64 === 0) await this.prune(session);
  }

  /**
   * Writes a temporary record file, making the session's folder first only
   * when this process has not made or found it yet (or it was removed since).
   */
  private writeTemp(session: string, tmp: string, bytes: Uint8Array): void {
    const dir = join(this.dir!, session);
    if (!this.made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.made.add(dir);
    }
    try {
      writeFileSync(tmp, bytes);
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") throw error;
      mkdirSync(dir, { recursive: true });
      writeFileSync(tmp, bytes);
    }
  }

  /** Forgets everything a session read, in memory and on disk. */
  async forget(session: string): Promise<void> {
    this.sessions.delete(session);
    if (this.dir === null) return;
    this.made.delete(join(this.dir, session));
    await rm(join(this.dir, session), { recursive: true, force: true });
    await rm(join(this.dir, `${session}.json`), { force: true });
  }

  /** Removes temporary record files that processes which died mid-save left behind. */
  async cleanTemps(): Promise<void> {
    if (this.dir === null) return;
    let sessions: string[];
    try {
      sessions = await readdir(this.dir);
    } catch {
      return;
    }
    for (const s of sessions) {
      let names: string[];
      try {
        names = await readdir(join(this.dir, s));
      } catch {
        continue;
      }
      for (const name of names) {
        const m = /\.rec\.(\d+)\.[a-z0-9]+\.tmp$/.exec(name);
        if (m && Number(m[1]) !== processId() && !processAlive(Number(m[1]))) {
          await rm(join(this.dir, s, name), { force: true });
        }
      }
    }
  }

  private files(session: string): Map<string, Cached> {
    let files = this.sessions.get(session);
    if (!files) this.sessions.set(session, files = new Map());
    return files;
  }

  private touch(files: Map<string, Cached>, real: string, c: Cached): void {
    files.delete(real);
    files.set(real, c);
  }

  private trim(session: string, files: Map<string, Cached>): string[] {
    const dropped: string[] = [];
    while (files.size > this.maxFiles) {
      const oldest = files.keys().next().value as string;
      files.delete(oldest);
      dropped.push(oldest);
    }
    if (files.size === 0) this.sessions.delete(session);
    return dropped;
  }

  /** Keeps a session's folder to the cap when other processes added records to it. */
  private async prune(session: string): Promise<void> {
    const dir = join(this.dir!, session);
    const names = (await readdir(dir).catch(() => [] as string[])).filter(
      (n) => n.endsWith(".rec"),
    );
    if (names.length <= this.maxFiles) return;
    const dated = await Promise.all(
      names.map(async (n) => ({
        n,
        t: (await stat(join(dir, n)).catch(() => null))?.mtimeMs ?? 0,
      })),
    );
    dated.sort((a, b) => a.t - b.t);
    for (const { n } of dated.slice(0, names.length - this.maxFiles)) {
      await unlink(join(dir, n)).catch(() => {});
    }
  }

  private async fileOf(session: string, real: string): Promise<string> {
    let name = this.names.get(real);
    if (!name) {
      const digest = await crypto.subtle.digest(
        "SHA-256",
        new TextEncoder().encode(real),
      );
      name = Array.from(
        new Uint8Array(digest).subarray(0, 16),
        (b) => b.toString(16).padStart(2, "0"),
      ).join("") + ".rec";
      if (this.names.size > 100_000) this.names.clear();
      this.names.set(real, name);
    }
    return join(this.dir!, session, name);
  }
}

/**
 * The generation in a record file's header: null when the file does not
 * exist, undefined when it cannot be looked at, `"?"` when it holds no
 * readable header (then the whole file is read, and judged, on the next get).
 */
function generationOf(file: string): string | null | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    return (error as { code?: string }).code === "ENOENT" ? null : undefined;
  }
  try {
    const head = new Uint8Array(8);
    if (readSync(fd, head, 0, 8, 0) < 8) return "?";
    const view = new DataView(head.buffer);
    if (view.getUint32(0, true) !== FILE_MAGIC) return "?";
    return String(view.getUint32(4, true));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Writes `bytes` over the start of an existing file; false when it is not there to update. */
function overwrite(file: string, bytes: Uint8Array): boolean {
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_NOFOLLOW);
  } catch {
    return false;
  }
  try {
    let at = 0;
    while (at < bytes.length) {
      at += writeSync(fd, bytes, at, bytes.length - at, at);
    }
  } finally {
    closeSync(fd);
  }
  return true;
}
