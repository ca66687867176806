/**
 * Sparse line indexes of huge files: where every 16384th line starts, and
 * how many lines there are, for one version of a file (device, inode, size,
 * mtime and ctime). The first read of a huge file counts all its lines; the
 * next reads of the same version seek near their window and stop there.
 * Kept in `<state>/lineindex/`, one small JSON file per file path.
 *
 * @module
 */
import { toHex } from "../_internal/bytes.ts";
import { sha256 } from "../_internal/sha256.ts";
import { join } from "node:path";
import { lstatSync, mkdir, readFile } from "../_runtime/fs.ts";
import { writeStateFile } from "../fs/state_file.ts";
import type { FileIdentity } from "../fs/confine.ts";

/** Lines between two checkpoints of an index. */
export const INDEX_EVERY = 16384;

/** Where the lines of one version of a file start, sparsely. */
export interface LineIndex {
  version: 1;
  /** The version of the file the index describes. */
  id: FileIdentity;
  /** Lines between checkpoints. */
  every: number;
  /** Lines in the file. */
  totalLines: number;
  /** `starts[k]`: byte offset where line `k * every + 1` starts. */
  starts: number[];
}

function sameVersion(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size &&
    a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

async function fileFor(dir: string, real: string): Promise<string> {
  const hex = toHex(await sha256(new TextEncoder().encode(real)), 16);
  return join(dir, `${hex}.json`);
}

/** Line indexes kept in one folder. */
export class LineIndexes {
  private readonly dir: string;

  /** @param dir The folder (`<state>/lineindex`). */
  constructor(dir: string) {
    this.dir = dir;
  }

  /** The index of exactly this version of the file, or null. */
  async get(real: string, id: FileIdentity): Promise<LineIndex | null> {
    try {
      const file = await fileFor(this.dir, real);
      // Only a regular file: a FIFO planted at the name is never waited on.
      if (!lstatSync(file).isFile()) return null;
      const doc = JSON.parse(
        new TextDecoder().decode(await readFile(file)),
      ) as LineIndex & { path?: string };
      if (
        doc.version !== 1 || doc.path !== real || !doc.id ||
        !sameVersion(doc.id, id) ||
        !Array.isArray(doc.starts) || doc.starts.length === 0 ||
        !Number.isSafeInteger(doc.every) || doc.every < 1 ||
        !Number.isSafeInteger(doc.totalLines)
      ) {
        return null;
      }
      return doc;
    } catch {
      return null;
    }
  }

  /** Keeps an index; a failure only costs the next read a full count. */
  async put(real: string, index: LineIndex): Promise<void> {
    try {
      await mkdir(this.dir, { recursive: true });
      const file = await fileFor(this.dir, real);
      // Through a temporary and a rename, never into a link or FIFO at the
      // name (docs/workspace.md "State folder"); one there is skipped.
      writeStateFile(file, JSON.stringify({ ...index, path: real }));
    } catch {
      // An index is a cache: without it the next read counts again.
    }
  }
}
