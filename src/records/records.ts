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
  mkdirSync,
  readdir,
  readdirSync,
  readFileSync,
  rm,
  stat,
  unlink,
} from "../_runtime/fs.ts";
import { processId } from "../_runtime/process.ts";
import { errnoOf } from "../_internal/errno.ts";
import { lazy } from "../_internal/lazy.ts";
import { toHex } from "../_internal/bytes.ts";
import { sha256 } from "../_internal/sha256.ts";
import { sameBytes } from "../fs/io.ts";
import {
  stateFileRefusal,
  StateFileSkipped,
  writeStateFile,
} from "../fs/state_file.ts";
import type { LineMemory } from "../patch/memory.ts";
import {
  decodeRecord,
  encodeRecord,
  generationOf,
  randomGeneration,
  unwrapRecord,
  wrapRecord,
} from "./record_file.ts";

// Temporary-file names and their owners' liveness (host and boot ids) load
// with the first record written through a temporary file or the first
// leftover one found: a re-read that changes no record needs neither.
const loadHolder = lazy<typeof import("../lock/holder.ts")>(
  import.meta.url,
  "../lock/holder.ts",
);

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
      // Loaded before any file is touched, so the save runs without a pause.
      const { tempId } = await loadHolder();
      const generation = randomGeneration();
      const bytes = wrapRecord(body, generation);
      // Written beside it and renamed over it, never into what stands at
      // the name (a state folder may come with a link or FIFO planted
      // there: docs/workspace.md "State folder"). What another process
      // saved meanwhile is replaced: the later save wins.
      this.writeFile(
        session,
        file,
        `${file}.${processId()}.${tempId()}.tmp`,
        bytes,
      );
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
   * Writes a record file through its temporary, making the session's
   * folder first only when this process has not made or found it yet (or
   * it was removed since).
   */
  private writeFile(
    session: string,
    file: string,
    tmp: string,
    bytes: Uint8Array,
  ): void {
    const dir = join(this.dir!, session);
    // Checked before any folder is made: a sessions folder planted as a
    // link must not get folders made where it points.
    const refused = stateFileRefusal(file, this.dir!);
    if (refused !== null) throw new StateFileSkipped(refused);
    if (!this.made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.made.add(dir);
    }
    try {
      writeStateFile(file, bytes, { temp: tmp, under: this.dir! });
    } catch (error) {
      if (errnoOf(error) !== "ENOENT") throw error;
      mkdirSync(dir, { recursive: true });
      writeStateFile(file, bytes, { temp: tmp, under: this.dir! });
    }
  }

  /**
   * Forgets one file in the record of every session but `keep` (a file a
   * patch deleted or renamed away), in memory and on disk.
   */
  async dropEverywhere(real: string, keep?: string): Promise<void> {
    for (const [session, files] of this.sessions) {
      if (session !== keep) files.delete(real);
    }
    const sessions = this.sessionFolders();
    if (sessions.length === 0) return;
    const file = await this.fileOf("", real);
    const name = file.slice(file.lastIndexOf("/") + 1);
    for (const s of sessions) {
      if (s === keep) continue;
      await unlink(join(this.dir!, s, name)).catch(() => {});
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
    for (const s of this.sessionFolders()) {
      let names: string[];
      try {
        names = readdirSync(join(this.dir!, s));
      } catch {
        continue;
      }
      for (const name of names) {
        const m = /\.rec\.(\d+)\.([a-z0-9]+)\.tmp$/.exec(name);
        if (m && (await loadHolder()).tempOwnerGone(Number(m[1]), m[2])) {
          await rm(join(this.dir!, s, name), { force: true });
        }
      }
    }
  }

  /**
   * The names in the records folder (one folder per session, and their
   * `.json` files), none when records stay in memory or there is no folder
   * yet. Listed synchronously: {@link cleanTemps} runs once, at the first
   * use of a workspace, where an async listing costs a CLI read about a
   * millisecond each under Deno.
   */
  private sessionFolders(): string[] {
    if (this.dir === null) return [];
    try {
      return readdirSync(this.dir);
    } catch {
      return [];
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
      name = toHex(await sha256(new TextEncoder().encode(real)), 16) +
        ".rec";
      if (this.names.size > 100_000) this.names.clear();
      this.names.set(real, name);
    }
    return join(this.dir!, session, name);
  }
}
