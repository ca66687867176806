/**
 * Root confinement (docs/workspace.md "Confinement"): every path is resolved against the real root
 * one component at a time, so a symlink anywhere on the way is judged by
 * where it really leads, and a file the patch creates lands in a real folder
 * inside the root.
 *
 * @module
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { lstatSync, realpathSync, statSync } from "../_runtime/fs.ts";
import {
  DeniedError,
  NotAFileError,
  NotFoundError,
  OutsideRootError,
  TooLargeError,
} from "../errors.ts";
import type { RootRef } from "./_pin.ts";
import { inside } from "./_paths.ts";

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
}

export { inside };

function errCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** Identity of a file from its stats. */
export function identityOf(
  st: {
    dev: number;
    ino: number;
    size: number;
    mtimeMs: number;
    ctimeMs: number;
    mode: number;
    uid?: number;
    gid?: number;
  },
): FileIdentity {
  return {
    dev: st.dev,
    ino: st.ino,
    size: st.size,
    mtimeMs: st.mtimeMs,
    ctimeMs: st.ctimeMs,
    mode: st.mode & 0o7777,
    uid: st.uid,
    gid: st.gid,
  };
}

/** Whether two identities describe the same version of a file. */
export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size &&
    a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
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
  private denied: ((path: string) => boolean) | null = null;
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
    const deny = rules.deny ?? [];
    if (
      !Array.isArray(deny) ||
      deny.some((g) => typeof g !== "string" || g === "")
    ) {
      throw new TypeError(
        "Cannot open workspace: deny must be a list of non-empty glob strings.",
      );
    }
    this.denyGlobs = deny;
    this.allowGit = rules.allowGit === true;
  }

  /**
   * Refuses a target the rules keep away: a `deny` glob (reads and
   * writes), and for writes anything under `.git/` or a `.hashline`
   * folder, and the toolkit's own lock and temporary files.
   *
   * @throws {DeniedError} When a rule refuses it.
   */
  check(target: Target, access: "read" | "write"): void {
    const rels = new Set([target.display]);
    const realRel = relative(this.root, target.real).split(sep).join("/");
    rels.add(realRel);
    if (this.denyGlobs.length > 0 && this.denied === null) {
      throw new Error(
        "Confinement.check ran before resolve loaded the deny globs.",
      );
    }
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
      if (/\.hashline-[a-z]+(\.tmp)?$|\.hashline-lock\./.test(name)) {
        throw new DeniedError(
          `Cannot write "${target.display}": the name is one of hashline's own lock or temporary files.`,
        );
      }
      if (this.allowGit) continue;
      if (parts.slice(0, -1).some((p) => p === ".git" || p === ".hashline")) {
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
  resolve(input: unknown): Promise<Target> {
    // The glob matcher is loaded on the first resolve that needs one, so a
    // workspace without `deny` (every command line read) never loads it.
    if (this.denyGlobs.length > 0 && this.denied === null) {
      return import("picomatch").then(({ default: picomatch }) => {
        this.denied ??= picomatch(this.denyGlobs as string[], { dot: true });
        return this.resolve(input);
      });
    }
    try {
      return Promise.resolve(this.resolveNow(input));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private resolveNow(input: unknown): Target {
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
        `Cannot use "${input}": it leads outside the workspace root. Use a path inside the root.`,
      );
    }
    const parts = rel.split(sep);
    const display = parts.join("/");
    let cur = this.root;
    for (let i = 0; i < parts.length; i++) {
      const next = join(cur, parts[i]);
      const shown = parts.slice(0, i + 1).join("/");
      let st;
      try {
        st = lstatSync(next);
      } catch (error) {
        const code = errCode(error);
        if (code === "ENOENT") {
          const dir = i === parts.length - 1
            ? cur
            : join(cur, ...parts.slice(i, -1));
          const missing: string[] = [];
          for (let k = i; k < parts.length - 1; k++) {
            missing.push(join(cur, ...parts.slice(i, k + 1)));
          }
          const real = join(dir, parts[parts.length - 1]);
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
      if (st.isSymbolicLink()) {
        let real: string;
        try {
          real = realpathSync(next);
        } catch {
          throw new OutsideRootError(
            `Cannot use "${input}": "${shown}" is a symlink whose target does not exist; dangling symlinks are refused.`,
          );
        }
        if (!inside(real, this.root)) {
          throw new OutsideRootError(
            `Cannot use "${input}": "${shown}" is a symlink that leads outside the workspace root.`,
          );
        }
        cur = real;
      } else {
        cur = next;
      }
      if (i < parts.length - 1 && !statSync(cur).isDirectory()) {
        throw new NotFoundError(
          `Cannot use "${input}": "${shown}" is a file, not a folder.`,
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
    if (inside(real, this.stateDir)) {
      throw new DeniedError(
        `Cannot use "${input}": it is inside the hashline state folder, which the workspace never edits.`,
      );
    }
  }
}
