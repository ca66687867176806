/**
 * Read records (DESIGN §3): per session and per real path, the full 32-bit
 * hash of every line the session was shown. They live in memory, or in
 * `<state>/sessions/<session>.json` so separate CLI processes form one
 * session.
 *
 * @module
 */
import { join } from "node:path";
import {
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  writeFile,
} from "../_runtime/fs.ts";
import { processAlive, processId } from "../_runtime/process.ts";
import type { PlannedEdit, ReadMemory } from "../patch/types.ts";

interface Run {
  start: number;
  hashes: number[];
}

/** Remembered full hashes of one file's lines, kept as sorted runs of consecutive lines. */
export class LineMemory implements ReadMemory {
  private runs: Run[];

  /** @param runs Sorted, non-overlapping runs. */
  constructor(runs: Run[] = []) {
    this.runs = runs;
  }

  /** The remembered hash of line n, or undefined. */
  hash32(n: number): number | undefined {
    const runs = this.runs;
    let lo = 0;
    let hi = runs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = runs[mid];
      if (n < r.start) hi = mid - 1;
      else if (n >= r.start + r.hashes.length) lo = mid + 1;
      else return r.hashes[n - r.start];
    }
    return undefined;
  }

  /** Number of lines remembered. */
  get size(): number {
    let n = 0;
    for (const r of this.runs) n += r.hashes.length;
    return n;
  }

  /** Forgets every line from n on (the file now has n - 1 lines). */
  forgetFrom(n: number): void {
    const out: Run[] = [];
    for (const r of this.runs) {
      if (r.start >= n) break;
      out.push(
        r.start + r.hashes.length > n
          ? { start: r.start, hashes: r.hashes.slice(0, n - r.start) }
          : r,
      );
    }
    this.runs = out;
  }

  /** Remembers lines start.. with these hashes, replacing what was known of them. */
  see(start: number, hashes: ArrayLike<number>): void {
    if (hashes.length === 0) return;
    const end = start + hashes.length;
    const out: Run[] = [];
    const fresh: Run = { start, hashes: Array.from(hashes) };
    let placed = false;
    for (const r of this.runs) {
      const rEnd = r.start + r.hashes.length;
      if (rEnd <= start) {
        out.push(r);
        continue;
      }
      if (r.start >= end) {
        if (!placed) out.push(fresh), placed = true;
        out.push(r);
        continue;
      }
      if (r.start < start) {
        out.push({
          start: r.start,
          hashes: r.hashes.slice(0, start - r.start),
        });
      }
      if (!placed) out.push(fresh), placed = true;
      if (rEnd > end) {
        out.push({ start: end, hashes: r.hashes.slice(end - r.start) });
      }
    }
    if (!placed) out.push(fresh);
    this.runs = coalesce(out);
  }

  /**
   * Moves every remembered line to where it stands after the planned edits;
   * lines the edits removed are forgotten.
   */
  remap(plan: readonly PlannedEdit[]): void {
    const edits = [...plan].sort((a, b) => a.at - b.at);
    const out: Run[] = [];
    let j = 0;
    let shift = 0;
    for (const r of this.runs) {
      for (let i = 0; i < r.hashes.length; i++) {
        const n = r.start + i;
        while (j < edits.length && edits[j].at + edits[j].deleteCount <= n) {
          shift += edits[j].lines.length - edits[j].deleteCount;
          j++;
        }
        if (j < edits.length && edits[j].at <= n) continue;
        const m = n + shift;
        const last = out[out.length - 1];
        if (last && last.start + last.hashes.length === m) {
          last.hashes.push(r.hashes[i]);
        } else out.push({ start: m, hashes: [r.hashes[i]] });
      }
    }
    this.runs = out;
  }

  /** Every remembered line as `[line, hash]`, in line order. */
  *entries(): Generator<[number, number]> {
    for (const r of this.runs) {
      for (let i = 0; i < r.hashes.length; i++) {
        yield [r.start + i, r.hashes[i]];
      }
    }
  }

  /** The runs as JSON-ready pairs `[start, hashes]`. */
  toJSON(): [number, number[]][] {
    return this.runs.map((r) => [r.start, r.hashes]);
  }

  /** Rebuilds from {@link LineMemory.toJSON} output, dropping anything malformed. */
  static fromJSON(value: unknown): LineMemory {
    const runs: Run[] = [];
    if (Array.isArray(value)) {
      for (const item of value) {
        if (
          Array.isArray(item) && Number.isSafeInteger(item[0]) &&
          item[0] >= 1 &&
          Array.isArray(item[1])
        ) {
          runs.push({
            start: item[0],
            hashes: item[1].map((h: unknown) => Number(h) >>> 0),
          });
        }
      }
    }
    runs.sort((a, b) => a.start - b.start);
    const mem = new LineMemory();
    for (const r of runs) mem.see(r.start, r.hashes);
    return mem;
  }
}

function coalesce(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const r of runs) {
    if (r.hashes.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.start + last.hashes.length === r.start) {
      for (const h of r.hashes) last.hashes.push(h);
    } else out.push({ start: r.start, hashes: r.hashes.slice() });
  }
  return out;
}

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

/** Most files one session remembers; the least recently read are dropped first. */
const MAX_FILES = 2000;

type Files = Map<string, LineMemory>;

/** Read records of every session of a workspace. */
export class SessionRecords {
  private readonly dir: string | null;
  private readonly memory = new Map<string, Files>();
  private readonly locks = new Map<string, Promise<unknown>>();

  /** @param dir Folder for `<session>.json` files, or null to keep records in memory only. */
  constructor(dir: string | null) {
    this.dir = dir;
  }

  /** The record of one file for a session, or undefined when the session never read it. */
  async get(session: string, real: string): Promise<LineMemory | undefined> {
    const files = await this.load(session);
    return files.get(real);
  }

  /**
   * Changes a session's records under a lock (and on disk when persisted),
   * so concurrent calls in one process never lose each other's updates.
   */
  update(session: string, change: (files: Files) => void): Promise<void> {
    const prev = this.locks.get(session) ?? Promise.resolve();
    const next = prev.catch(() => {}).then(async () => {
      const files = await this.load(session);
      change(files);
      while (files.size > MAX_FILES) {
        files.delete(files.keys().next().value as string);
      }
      await this.save(session, files);
    });
    this.locks.set(session, next);
    return next;
  }

  /** Removes temporary record files that processes which died mid-save left behind. */
  async cleanTemps(): Promise<void> {
    if (this.dir === null) return;
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const m = /^\..+\.(\d+)\.[a-z0-9]+\.tmp$/.exec(name);
      if (m && Number(m[1]) !== processId() && !processAlive(Number(m[1]))) {
        await rm(join(this.dir, name), { force: true });
      }
    }
  }

  private async load(session: string): Promise<Files> {
    if (this.dir === null) {
      let files = this.memory.get(session);
      if (!files) this.memory.set(session, files = new Map());
      return files;
    }
    const files: Files = new Map();
    let raw: string;
    try {
      raw = new TextDecoder().decode(await readFile(this.file(session)));
    } catch {
      return files;
    }
    try {
      const doc = JSON.parse(raw) as { files?: Record<string, unknown> };
      for (const [real, runs] of Object.entries(doc.files ?? {})) {
        files.set(real, LineMemory.fromJSON(runs));
      }
    } catch {
      // A damaged record only costs the session its reads: it must read again.
    }
    return files;
  }

  private async save(session: string, files: Files): Promise<void> {
    if (this.dir === null) return;
    const doc = { version: 1, files: Object.fromEntries(files) };
    await mkdir(this.dir, { recursive: true });
    const tmp = join(
      this.dir,
      `.${session}.${processId()}.${Math.random().toString(36).slice(2)}.tmp`,
    );
    try {
      await writeFile(tmp, JSON.stringify(doc));
      await rename(tmp, this.file(session));
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }

  private file(session: string): string {
    return join(this.dir as string, `${session}.json`);
  }
}
