/**
 * The files a listing or a search walks (docs/workspace.md "Finding
 * files"): every regular file under the root, in name order, leaving out
 * `.git/` and `.hashline/` folders, the state folder, hashline's own lock
 * and temporary files, paths a `.gitignore` (the root's, nested ones and
 * `.git/info/exclude`) ignores and paths `deny` refuses. Symlinks to files
 * are listed; symlinks to folders are not followed, so a loop cannot trap
 * the walk.
 *
 * @module
 */
import { join } from "node:path";
import { readdir, readFile, stat } from "../_runtime/fs.ts";
import { compileGlobs } from "../_internal/glob.ts";
import {
  ignoredBy,
  type IgnoreRule,
  parseGitignore,
} from "../_internal/gitignore.ts";
import type { Confinement } from "./confine.ts";

/** Most folder entries one walk looks at, so a huge tree answers in bounded time. */
export const MAX_WALK_ENTRIES = 200_000;

/** A `.gitignore` larger than this is not read (no real one comes close). */
const MAX_IGNORE_BYTES = 1024 * 1024;

/** What a walk needs of a workspace: its root, its state folder and its rules. */
export interface WalkScope {
  /** The root folder walked. */
  readonly root: string;
  /** The state folder, left out of the walk. */
  readonly stateDir: string;
  /** The root's rules; a path `deny` refuses is left out. */
  readonly conf: Pick<Confinement, "deniedBy">;
}

/** One file the walk found. */
export interface WalkedFile {
  /** Root-relative path with `/` separators. */
  path: string;
  /** Its size in bytes. */
  size: number;
}

/** What a walk found. */
export interface Walked {
  /** Files whose path the glob matches, in name order. */
  files: WalkedFile[];
  /** True when the walk stopped at {@link MAX_WALK_ENTRIES}. */
  cut: boolean;
}

/**
 * A predicate for a glob as listings read it: a glob with no `/` matches a
 * name at any depth (`*.ts`), and a glob that matches a folder matches
 * everything under it (`src`), as `.gitignore` patterns do.
 *
 * @throws {TypeError} When the glob is not a non-empty string.
 */
export function globMatcher(glob: unknown): (path: string) => boolean {
  if (typeof glob !== "string" || glob.trim() === "") {
    throw new TypeError(
      `glob must be a non-empty string such as "**/*.ts", got ${
        JSON.stringify(glob)
      }.`,
    );
  }
  const g = glob.trim().replace(/^\.\//, "").replace(/\/+$/, "");
  const matches = compileGlobs([g.includes("/") ? g : `**/${g}`], "glob");
  return (path) => {
    if (matches(path)) return true;
    for (let at = path.indexOf("/"); at > 0; at = path.indexOf("/", at + 1)) {
      if (matches(path.slice(0, at))) return true;
    }
    return false;
  };
}

/** Reads a folder's `.gitignore`, or nothing. */
async function ignoreFile(disk: string, base: string): Promise<IgnoreRule[]> {
  try {
    const st = await stat(disk);
    if (!st.isFile() || st.size > MAX_IGNORE_BYTES) return [];
    return parseGitignore(await readFile(disk, "utf8"), base);
  } catch {
    return [];
  }
}

/** Whether a name is a folder or file the walk never shows. */
function hidden(name: string): boolean {
  return name === ".git" || name === ".hashline" ||
    /\.hashline-[a-z]+(\.tmp)?$|\.hashline-lock\./.test(name);
}

/**
 * Walks the root for files whose root-relative path `matches` accepts.
 *
 * @param ctx The workspace walked.
 * @param matches The glob's predicate.
 * @returns The files, in name order, and whether the walk was cut short.
 */
export async function walkFiles(
  ctx: WalkScope,
  matches: (path: string) => boolean,
): Promise<Walked> {
  const files: WalkedFile[] = [];
  let seen = 0;
  const rootRules = [
    ...await ignoreFile(join(ctx.root, ".git", "info", "exclude"), ""),
  ];
  const visit = async (
    disk: string,
    rel: string,
    inherited: IgnoreRule[],
  ): Promise<boolean> => {
    const rules = [
      ...inherited,
      ...await ignoreFile(join(disk, ".gitignore"), rel),
    ];
    let entries;
    try {
      entries = await readdir(disk, { withFileTypes: true });
    } catch {
      return true;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (++seen > MAX_WALK_ENTRIES) return false;
      if (hidden(entry.name)) continue;
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const full = join(disk, entry.name);
      if (full === ctx.stateDir) continue;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      let size = -1;
      if (entry.isSymbolicLink()) {
        const st = await stat(full).catch(() => null);
        isDir = false;
        isFile = st?.isFile() ?? false;
        size = st?.size ?? -1;
      }
      if (ignoredBy(rules, path, isDir)) continue;
      if (isDir) {
        if (!await visit(full, path, rules)) return false;
        continue;
      }
      if (!isFile || ctx.conf.deniedBy(path) !== undefined) continue;
      if (!matches(path)) continue;
      if (size < 0) {
        const st = await stat(full).catch(() => null);
        if (!st) continue;
        size = st.size;
      }
      files.push({ path, size });
    }
    return true;
  };
  const whole = await visit(ctx.root, "", rootRules);
  return { files, cut: !whole };
}
