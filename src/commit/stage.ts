/**
 * Staging (docs/workspace.md "Writing"): a file's new content written to a
 * temporary file beside it — created exclusively, never following a
 * symlink, through its pinned folder — flushed and given the old file's
 * mode and owner.
 *
 * @module
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  open,
  openSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  writeAllSync,
} from "../_runtime/fs.ts";
import type { FileHandle } from "../_runtime/file_handle.ts";
import { errnoOf, mapFsError } from "../_internal/errno.ts";
import { cutUtf8 } from "../_internal/names.ts";
import { changedError } from "../errors.ts";
import { type FileIdentity, identityOf, type Target } from "../fs/confine.ts";
import { tempId } from "../lock/holder.ts";
import { partsUnder, type Pin, pinFolder, type RootRef } from "../fs/pin.ts";
import { join } from "node:path";
import { OpenTemp } from "./flush.ts";

/** One file to commit. */
export interface StageEntry {
  /** The checked target (its `stat` is the version the new content was built from). */
  target: Target;
  /**
   * Writes the whole new content to the open temporary file (for content
   * not held in `bytes`, such as a streamed rewrite).
   */
  write?(handle: FileHandle): Promise<void>;
  /**
   * The whole new content, when it is held in memory: then it is written
   * with synchronous calls, which for a file of that size cost far less
   * than the hand-offs of asynchronous ones.
   */
  bytes?: Uint8Array;
  /**
   * The exact bytes the new content was built from: right before the
   * rename, beside the identity check, the file is read again through the
   * folder the rename goes through and must still hold them (some runtimes
   * report change times in whole seconds, so identity alone can miss a
   * quick rewrite).
   */
  old?: Uint8Array;
  /** Remove the target instead of writing it (a deletion, or an undo of a creation); `write` is not called. */
  remove?: boolean;
  /**
   * The new file's name is held now by a file an earlier entry of the same
   * commit removes (a case- or normalization-only rename on a file system
   * that folds them): it is checked right before it is claimed, not before.
   */
  freed?: boolean;
  /** The mode a new file takes (a renamed file keeps its own, a deleted one gets it back on undo). */
  mode?: number;
  /**
   * Put a symlink with this text at the target instead of a file (a
   * renamed link, or an undo of a link's delete): staged as a symlink
   * temporary and claimed like a new file (docs/workspace.md "Symlinks").
   */
  link?: string;
}

export function randomId(): string {
  // Names this host boot and PID namespace, so orphan cleanup never takes
  // a live writer's temporary in another container for a dead one's.
  return tempId();
}

/**
 * The side file's name: `.NAME.PID-ID.hashline-KIND.tmp`, where KIND is
 * `new`/`old` for a journaled commit's temporary and backup, and `one` for
 * a one-file commit's temporary (which no journal names, so the next writer
 * of the file may remove it once its process is dead).
 */
export function sideName(
  base: string,
  pid: number,
  id: string,
  kind: "new" | "old" | "one",
): string {
  return `.${cutUtf8(base, 96)}.${pid}-${id}.hashline-${kind}.tmp`;
}

/** Pins a target's folder, creating missing folders one at a time through their parents. */
function pinTargetFolder(root: RootRef, target: Target): Pin {
  const parts = partsUnder(root, target.dir);
  const have = parts.length - target.missing.length;
  for (let i = have; i < parts.length; i++) {
    const parent = pinFolder(root, parts.slice(0, i));
    try {
      mkdirSync(parent.path(parts[i]));
    } catch (error) {
      if (errnoOf(error) !== "EEXIST") throw error;
    } finally {
      parent.close();
    }
  }
  try {
    return pinFolder(root, parts);
  } catch (error) {
    const code = errnoOf(error);
    if (code === "ELOOP" || code === "ENOTDIR" || code === "ENOENT") {
      throw changedError(target.display);
    }
    throw error;
  }
}

/**
 * The identity of what stands at `name` in a pinned folder, never
 * following a symlink: a file's or a symlink's own (a link has an inode of
 * its own, so it never passes for the file it points to); anything else
 * matches no identity.
 */
export function identityAt(pin: Pin, name: string): FileIdentity | null {
  try {
    const st = lstatSync(pin.path(name));
    return st.isFile() || st.isSymbolicLink()
      ? identityOf(st)
      : { ...identityOf(st), ino: -1 };
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return null;
    throw error;
  }
}

export function removeQuietly(pin: Pin, name: string | null): void {
  if (!name) return;
  try {
    unlinkSync(pin.path(name));
  } catch {
    // Already gone.
  }
}

/** One entry of a commit with the names of its side files, before its folder is pinned. */
export interface Side {
  /** The file to commit. */
  entry: StageEntry;
  /** The target's base name. */
  name: string;
  /** The base name of its temporary (see {@link sideName}). */
  temp: string;
  /** The base name of its backup link; null when the commit makes none. */
  backup: string | null;
}

/** One entry of a commit, its target's folder pinned. */
export interface Staged extends Side {
  /** The target's folder, pinned. */
  pin: Pin;
  /** The version of the target the last check expects (a backup link changes its ctime). */
  expect?: FileIdentity;
}

/** `side` with its target's folder pinned, ready to stage. */
export function pinSide(root: RootRef, side: Side): Staged {
  return { ...side, pin: pinTargetFolder(root, side.entry.target) };
}

/**
 * Stages the new content of a one-file commit. Content held in memory is
 * written and left open, its flush for the caller to start so that it runs
 * beside other work; other content is written and flushed here; a removal
 * stages nothing.
 *
 * @returns The temporary's inode (null for a removal) and, for content
 * held in memory, its open handle.
 */
export async function stageOne(
  s: Staged,
): Promise<{ ino: number | null; temp: OpenTemp | null }> {
  if (s.entry.remove) return { ino: null, temp: null };
  if (s.entry.bytes) {
    const open = stageBytesOpen(s, s.entry.bytes, false);
    return { ino: open.ino, temp: new OpenTemp(open.fd) };
  }
  return { ino: await stage(s), temp: null };
}

/**
 * Path, flags and mode the temporary file of `s` is opened with: created
 * exclusively, never through a symlink, and private while it stands in for
 * a file that exists (it takes that file's mode once written).
 */
function tempOpen(s: Staged): [path: string, flags: number, mode: number] {
  return [
    s.pin.path(s.temp),
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL |
    constants.O_NOFOLLOW,
    s.entry.target.exists ? 0o600 : 0o666,
  ];
}

/** Writes the temporary file of one entry and flushes it. */
export async function stage(s: Staged): Promise<number> {
  if (s.entry.link !== undefined) return stageLink(s, s.entry.link);
  if (s.entry.bytes) return stageBytes(s, s.entry.bytes);
  const { target } = s.entry;
  let h: FileHandle;
  try {
    h = await open(...tempOpen(s));
  } catch (error) {
    throw mapFsError(error, `Cannot write "${target.display}"`);
  }
  try {
    await s.entry.write!(h);
    if (target.stat) {
      await h.chmod(target.stat.mode);
      if (target.stat.uid !== undefined) {
        await h.chown(target.stat.uid, target.stat.gid!).catch(() => {});
      }
    } else if (s.entry.mode !== undefined) {
      await h.chmod(s.entry.mode & 0o7777);
    }
    await h.sync();
    return (await h.stat()).ino;
  } catch (error) {
    await h.close().catch(() => {});
    removeQuietly(s.pin, s.temp);
    throw mapFsError(error, `Cannot write "${target.display}"`);
  } finally {
    await h.close().catch(() => {});
  }
}

/** Makes the temporary of an entry that puts a symlink in place; its inode. */
function stageLink(s: Staged, text: string): number {
  try {
    symlinkSync(text, s.pin.path(s.temp));
    return lstatSync(s.pin.path(s.temp)).ino;
  } catch (error) {
    removeQuietly(s.pin, s.temp);
    throw mapFsError(error, `Cannot write "${s.entry.target.display}"`);
  }
}

function stageBytes(s: Staged, bytes: Uint8Array): number {
  const { fd, ino } = stageBytesOpen(s, bytes, true);
  closeSync(fd);
  return ino;
}

/**
 * Writes the temporary of one entry held in memory and leaves it open:
 * flushed here with `flush`, else the caller flushes it (so that flush can
 * run beside other work) and closes it.
 */
function stageBytesOpen(
  s: Staged,
  bytes: Uint8Array,
  flush: boolean,
): { fd: number; ino: number } {
  const { target } = s.entry;
  let fd: number;
  try {
    fd = openSync(...tempOpen(s));
  } catch (error) {
    throw mapFsError(error, `Cannot write "${target.display}"`);
  }
  try {
    writeAllSync(fd, bytes);
    const st = fstatSync(fd);
    if (target.stat) {
      fchmodSync(fd, target.stat.mode);
      // The temporary is already owned as the file was (the usual case): no call needed.
      if (
        target.stat.uid !== undefined &&
        (st.uid !== target.stat.uid || st.gid !== target.stat.gid)
      ) {
        try {
          fchownSync(fd, target.stat.uid, target.stat.gid!);
        } catch {
          // Only a privileged process may give a file away; the mode is kept all the same.
        }
      }
    } else if (s.entry.mode !== undefined) {
      fchmodSync(fd, s.entry.mode & 0o7777);
    }
    if (flush) fsyncSync(fd);
    return { fd, ino: st.ino };
  } catch (error) {
    closeSync(fd);
    removeQuietly(s.pin, s.temp);
    throw mapFsError(error, `Cannot write "${target.display}"`);
  }
}

/** Real paths of the folders a commit makes for its entries, outermost first. */
export function foldersToMake(
  root: RootRef,
  entries: readonly StageEntry[],
): string[] {
  const out = new Set<string>();
  for (const e of entries) {
    if (e.remove || e.target.missing.length === 0) continue;
    const parts = partsUnder(root, e.target.dir);
    const have = parts.length - e.target.missing.length;
    for (let i = have; i < parts.length; i++) {
      out.add(join(root.real, ...parts.slice(0, i + 1)));
    }
  }
  return [...out];
}

/**
 * Removes those of `dirs` (real paths under the root) that are empty,
 * deepest first, each through its pinned parent; one that is not empty, or
 * not a folder any more, is left alone.
 */
export function removeEmptyFolders(
  root: RootRef,
  dirs: readonly string[],
): void {
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
    try {
      const parts = partsUnder(root, d);
      if (parts.length === 0) continue;
      const parent = pinFolder(root, parts.slice(0, -1));
      try {
        rmdirSync(parent.path(parts[parts.length - 1]));
      } finally {
        parent.close();
      }
    } catch {
      // Not empty, gone, or no longer a folder: it stays as it is.
    }
  }
}
