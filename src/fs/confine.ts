/**
 * Root confinement (docs/workspace.md "Confinement"): every path is resolved against the real root
 * one component at a time, so a symlink anywhere on the way is judged by
 * where it really leads, and a file the patch creates lands in a real folder
 * inside the root.
 *
 * @module
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import {
  lstatSync,
  readlinkSync,
  realpathSync,
  statSync,
} from "../_runtime/fs.ts";
import {
  DeniedError,
  NotAFileError,
  NotFoundError,
  OutsideRootError,
  TooLargeError,
} from "../errors.ts";
import type { RootRef } from "./pin.ts";
import { badPath, checkPathBounds, inside, PATH_MAX_BYTES } from "./paths.ts";
import { compileGlobs, denyGlobs } from "../_internal/glob.ts";
import { foldName, guardName, utf8Length } from "../_internal/names.ts";
import { errnoOf, mapFsError } from "../_internal/errno.ts";

/** A path inside the root, checked. */
export interface Target {
  /** The path as the caller wrote it. */
  input: string;
  /** Root-relative path with `/` separators, as shown to the model. */
  display: string;
  /** Real path of the file (for a file yet to be created: its real folder + name). */
  real: string;
  /** Real path of the folder that holds the file (may not exist yet: see `missing`). */
  dir: string;
  /** Whether the file exists now. */
  exists: boolean;
  /** Folders to create before the file can be written, outermost first. */
  missing: string[];
  /** File identity and metadata when it exists. */
  stat?: FileIdentity;
  /** The root the target lies under (every file operation starts from it). */
  root: RootRef;
  /**
   * The symlink's text, when the path names a symlink kept as itself
   * ({@link ResolveOptions.keepLink}); `real` is then the link's own path.
   */
  link?: string;
}

/** What tells one version of a file from another without reading it. */
export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  /** Changes with every write, and cannot be set back (unlike mtime). */
  ctimeMs: number;
  mode: number;
  /** Owner, kept on write where the process may set it. */
  uid?: number;
  gid?: number;
  /** Names (hard links) the file has; a commit replaces only this path's. */
  nlink?: number;
}

export { inside };

/** `name` inside `dir`, without re-normalizing the whole path at each step. */
function child(dir: string, name: string): string {
  return (dir.endsWith(sep) ? dir : dir + sep) + name;
}

/** Identity of a file from its stats (which carry the same fields and more): the mode keeps only its permission bits. */
export function identityOf(st: FileIdentity): FileIdentity {
  return {
    dev: st.dev,
    ino: st.ino,
    size: st.size,
    mtimeMs: st.mtimeMs,
    ctimeMs: st.ctimeMs,
    mode: st.mode & 0o7777,
    uid: st.uid,
    gid: st.gid,
    nlink: st.nlink,
  };
}

/** Whether two identities describe the same version of a file. */
export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size &&
    a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/** How {@link Confinement.resolve} treats the last name of a path. */
export interface ResolveOptions {
  /**
   * The path names a file operation's own subject (a delete, a rename's
   * source, an undo of one): a symlink at the last name is the target
   * itself, with its text in `link`, never followed, wherever it leads
   * (docs/workspace.md "Symlinks").
   */
  keepLink?: boolean;
}

/** Resolves and checks paths against one root. */
export class Confinement {
  /** Real path of the root. */
  readonly root: string;
  /** The root as given (resolved, symlinks kept), so absolute paths written against it work. */
  readonly given: string;
  /** The state folder (refused as a target when it lies inside the root). */
  readonly stateDir: string;
  /** Largest file accepted, in bytes. */
  readonly maxFileBytes: number;
  /** The root's real path and identity, where every pin starts. */
  readonly rootRef: RootRef;
  private readonly denied: ((path: string) => boolean) | null;
  private readonly denyGlobs: readonly string[];
  private readonly allowGit: boolean;

  /**
   * @param root Real path of the root.
   * @param given The root as the caller wrote it, resolved.
   * @param stateDir The state folder, resolved.
   * @param maxFileBytes Largest file accepted.
   * @param rules `deny` globs and whether `.git`/`.hashline` may be written.
   */
  constructor(
    root: string,
    given: string,
    stateDir: string,
    maxFileBytes: number,
    rules: { deny?: readonly string[]; allowGit?: boolean } = {},
  ) {
    this.root = root;
    this.given = given;
    this.stateDir = stateDir;
    this.maxFileBytes = maxFileBytes;
    const st = statSync(root);
    this.rootRef = { real: root, dev: st.dev, ino: st.ino };
    const deny = denyGlobs(rules.deny ?? [], "Cannot open workspace");
    this.denyGlobs = deny;
    this.denied = deny.length > 0 ? compileGlobs(deny) : null;
    this.allowGit = rules.allowGit === true;
  }

  /**
   * The workspace's `deny` globs, joined, when they cover a root-relative
   * path (history views withhold its lines); else undefined.
   *
   * @param display Root-relative path with `/` separators.
   */
  deniedBy(display: string): string | undefined {
    return this.denied?.(foldName(display))
      ? this.denyGlobs.join(", ")
      : undefined;
  }

  /**
   * Refuses a target the rules keep away: a `deny` glob (reads and
   * writes), and for writes anything under `.git/` or a `.hashline`
   * folder, and the toolkit's own lock and temporary files.
   *
   * @throws {DeniedError} When a rule refuses it.
   */
  check(target: Target, access: "read" | "write"): void {
    // Rules compare folded spellings (case, NFC): on case-insensitive or
    // normalizing file systems `.GIT/config` or an NFD name is the same file.
    const rels = new Set([foldName(target.display)]);
    const realRel = relative(this.root, target.real).split(sep).join("/");
    rels.add(foldName(realRel));
    for (const rel of rels) {
      if (this.denied?.(rel)) {
        throw new DeniedError(
          `Cannot ${access} "${target.display}": the workspace denies it (deny: ${
            this.denyGlobs.join(", ")
          }).`,
        );
      }
      if (access === "read") continue;
      const parts = rel.split("/");
      const name = parts[parts.length - 1];
      if (
        /\.hashline-[a-z]+(\.tmp)?$|\.hashline-lock\./.test(guardName(name))
      ) {
        throw new DeniedError(
          `Cannot write "${target.display}": the name is one of hashline's own lock or temporary files.`,
        );
      }
      if (this.allowGit) continue;
      if (
        parts.slice(0, -1).some((p) => {
          const g = guardName(p);
          return g === ".git" || g === ".hashline";
        })
      ) {
        throw new DeniedError(
          `Cannot write "${target.display}": writes under .git/ and .hashline/ are refused (a hook or config there runs code on the next git command). Open the workspace with allowGit: true to allow them.`,
        );
      }
    }
  }

  /**
   * Resolves a caller's path to a checked target.
   *
   * @throws {TypeError} When the path is not a non-empty string.
   * @throws {OutsideRootError} When it leads outside the root, through a
   *   dangling symlink, into the state folder, holds a NUL byte, or names
   *   something that is not a regular file.
   * @throws {TooLargeError} When the file is over the size limit.
   * @throws {NotFoundError} When a folder on the way is a file.
   */
  resolve(input: unknown, options: ResolveOptions = {}): Promise<Target> {
    try {
      return Promise.resolve(this.resolveNow(input, options));
    } catch (error) {
      // A folder that changed under the check (ENOENT, ENOTDIR, ELOOP)
      // passes through as it is: the resolve step names it CHANGED.
      const code = (error as { code?: unknown } | null)?.code;
      if (code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP") {
        return Promise.reject(error);
      }
      if (code === "ENAMETOOLONG") {
        return Promise.reject(
          badPath(
            `Cannot use "${
              String(input).slice(0, 60)
            }": the operating system says the path is too long. Use a shorter path.`,
          ),
        );
      }
      return Promise.reject(
        mapFsError(error, `Cannot use "${String(input).slice(0, 200)}"`),
      );
    }
  }

  private resolveNow(input: unknown, options: ResolveOptions): Target {
    if (typeof input !== "string" || input.length === 0) {
      throw new TypeError(
        `Cannot use path: expected a non-empty string relative to the workspace root, got ${
          input === "" ? "an empty string" : typeof input
        }.`,
      );
    }
    if (input.includes("\0")) {
      throw new OutsideRootError(
        `Cannot use path ${JSON.stringify(input)}: it holds a NUL byte.`,
      );
    }
    if (/[\\/]$/.test(input)) {
      throw new NotAFileError(
        `Cannot use "${input}": a trailing "/" names a folder; give the file's path without it.`,
      );
    }
    checkPathBounds(input);
    let lexical = resolve(this.root, input);
    if (!inside(lexical, this.root) && inside(lexical, this.given)) {
      lexical = join(this.root, relative(this.given, lexical));
    }
    const rel = relative(this.root, lexical);
    if (rel === "") {
      throw new OutsideRootError(
        `Cannot use "${input}": it is the workspace root folder, not a file.`,
      );
    }
    if (rel === ".." || rel.startsWith(".." + sep) || isAbsolute(rel)) {
      throw new OutsideRootError(
        `Cannot use "${input}": it leads outside the workspace root ${this.given}. Use a path inside the root.`,
      );
    }
    const parts = rel.split(sep);
    const display = parts.join("/");
    // Each step costs the length of the path so far, which the bounds above
    // keep under PATH_MAX_BYTES; messages build the shown prefix only when
    // they are thrown.
    const shownAt = (i: number) => parts.slice(0, i + 1).join("/");
    let cur = this.root;
    for (let i = 0; i < parts.length; i++) {
      const next = child(cur, parts[i]);
      let st;
      try {
        st = lstatSync(next);
      } catch (error) {
        const code = errnoOf(error);
        if (code === "ENOENT") {
          const missing: string[] = [];
          let dir = cur;
          for (let k = i; k < parts.length - 1; k++) {
            dir = child(dir, parts[k]);
            missing.push(dir);
          }
          const real = child(dir, parts[parts.length - 1]);
          this.checkState(input, real);
          return {
            input,
            display,
            real,
            dir,
            exists: false,
            missing,
            root: this.rootRef,
          };
        }
        if (code === "ENOTDIR") {
          throw new NotFoundError(
            `Cannot use "${input}": a part of the path before "${
              parts[i]
            }" is a file, not a folder.`,
          );
        }
        throw error;
      }
      if (st.isSymbolicLink() && i === parts.length - 1 && options.keepLink) {
        this.checkState(input, next);
        return {
          input,
          display,
          real: next,
          dir: cur,
          exists: true,
          missing: [],
          stat: identityOf(st),
          root: this.rootRef,
          link: readlinkSync(next),
        };
      }
      if (st.isSymbolicLink()) {
        let real: string;
        try {
          real = realpathSync(next);
        } catch (error) {
          if (errnoOf(error) === "ELOOP" || errnoOf(error) === "ENAMETOOLONG") {
            throw badPath(
              `Cannot use "${input}": "${
                shownAt(i)
              }" is a symlink that leads into a loop or a path too long to resolve.`,
            );
          }
          throw new OutsideRootError(
            `Cannot use "${input}": "${
              shownAt(i)
            }" is a symlink whose target does not exist; dangling symlinks are refused.`,
          );
        }
        if (!inside(real, this.root)) {
          throw new OutsideRootError(
            `Cannot use "${input}": "${
              shownAt(i)
            }" is a symlink that leads outside the workspace root ${this.given}.`,
          );
        }
        // A symlink loop inside the root cannot make the real path longer
        // than any path the caller could have written.
        if (utf8Length(real) - utf8Length(this.root) > PATH_MAX_BYTES) {
          throw badPath(
            `Cannot use "${input}": through its symlinks it resolves to a path over ${PATH_MAX_BYTES} bytes.`,
          );
        }
        cur = real;
      } else {
        cur = next;
      }
      // A plain entry's lstat already says what it is; only a symlink's
      // target needs a second look.
      const isDir = st.isSymbolicLink()
        ? statSync(cur).isDirectory()
        : st.isDirectory();
      if (i < parts.length - 1 && !isDir) {
        throw new NotFoundError(
          `Cannot use "${input}": "${shownAt(i)}" is a file, not a folder.`,
        );
      }
    }
    this.checkState(input, cur);
    const st = statSync(cur);
    if (!st.isFile()) {
      const kind = st.isDirectory()
        ? "a folder"
        : st.isFIFO()
        ? "a FIFO"
        : st.isSocket()
        ? "a socket"
        : st.isCharacterDevice() || st.isBlockDevice()
        ? "a device"
        : "not a regular file";
      throw new NotAFileError(
        `Cannot use "${input}": it is ${kind}; only regular files can be read or patched.`,
        st.isDirectory(),
      );
    }
    if (st.size > this.maxFileBytes) {
      throw new TooLargeError(
        `Cannot use "${input}": it is ${st.size} bytes, over the workspace limit of ${this.maxFileBytes} bytes.`,
      );
    }
    return {
      input,
      display,
      real: cur,
      dir: dirname(cur),
      exists: true,
      missing: [],
      stat: identityOf(st),
      root: this.rootRef,
    };
  }

  private checkState(input: string, real: string): void {
    if (
      inside(real, this.stateDir) ||
      inside(foldName(real), foldName(this.stateDir))
    ) {
      throw new DeniedError(
        `Cannot use "${input}": it is inside the hashline state folder, which the workspace never edits.`,
      );
    }
  }
}
