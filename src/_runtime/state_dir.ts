/**
 * The one home of the state folder's default: `<root>/.hashline/`, wherever
 * the command runs, unless `--state DIR` or `HASHLINE_STORE` names another.
 * A state folder created here holds a `.gitignore` of `*`, so `git status`
 * in the root stays clean.
 *
 * @module
 */
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readlinkSync,
  realpathSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { OutsideRootError } from "../errors.ts";
import { errnoOf } from "../_internal/errno.ts";
import { getEnv } from "./config.ts";
import { cwd as processCwd } from "./env.ts";

/** The state folder's name under the root when nothing else is chosen. */
export const STATE_FOLDER = ".hashline";

/** Where the state folder is chosen from. */
export interface StateDirOptions {
  /** A folder chosen on the command line (`--state DIR`); taken before `HASHLINE_STORE`. */
  state?: string;
  /** The folder relative choices are resolved against (default the working folder). */
  cwd?: string;
  /** Environment lookup (default the process environment). */
  env?: (name: string) => string | undefined;
}

/**
 * The state folder of a workspace: `state`, else `HASHLINE_STORE` (either
 * taken from the working folder when relative), else `<root>/.hashline`.
 * When the folder does not exist yet it is created with a `.gitignore` of
 * `*`; a default folder is only created in a root that exists.
 *
 * @param root The workspace root.
 * @param options A chosen folder, the working folder and the environment.
 * @returns The absolute state folder.
 * @throws {OutsideRootError} When the default folder (`<root>/.hashline`)
 *   is a symlink or resolves outside the root.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, readFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { stateDirOf } from "./state_dir.ts";
 *
 * const root = mkdtempSync(join(tmpdir(), "hashline-state-"));
 * const dir = stateDirOf(root, { env: () => undefined });
 * assert.equal(dir, join(root, ".hashline"));
 * assert.equal(readFileSync(join(dir, ".gitignore"), "utf8"), "*\n");
 * ```
 */
export function stateDirOf(
  root: string,
  options: StateDirOptions = {},
): string {
  const base = options.cwd ?? processCwd();
  const chosen = options.state || (options.env ?? getEnv)("HASHLINE_STORE") ||
    undefined;
  const dir = chosen
    ? resolve(base, chosen)
    : join(resolve(base, root), STATE_FOLDER);
  if (chosen === undefined) refuseLinked(resolve(base, root), dir);
  prepare(dir, chosen !== undefined);
  return dir;
}

/**
 * Refuses a default state folder that is a symlink or resolves outside the
 * root: a repository could ship `.hashline` as a link and have every
 * record, receipt and journal written where it points (docs/workspace.md
 * "State folder"). A folder chosen explicitly is the user's to place.
 */
function refuseLinked(root: string, dir: string): void {
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    return;
  }
  const choose =
    "Remove it (hashline makes a real folder there), or choose the state folder explicitly with --state DIR, the stateDir option or HASHLINE_STORE.";
  if (st.isSymbolicLink()) {
    let to = "";
    try {
      to = ` to "${readlinkSync(dir)}"`;
    } catch {
      // Gone meanwhile: refused all the same.
    }
    throw new OutsideRootError(
      `Cannot use the state folder "${dir}": it is a symlink${to}, and hashline does not keep its state through a link it did not choose. ${choose}`,
    );
  }
  let real: string;
  let realRoot: string;
  try {
    real = realpathSync(dir);
    realRoot = realpathSync(root);
  } catch {
    return;
  }
  const rel = relative(realRoot, real);
  if (rel.startsWith("..") || isAbsolute(rel)) {
    throw new OutsideRootError(
      `Cannot use the state folder "${dir}": it resolves to "${real}", outside the root. ${choose}`,
    );
  }
}

/**
 * The nearest folder, from `from` upward, that holds a `.hashline/` state
 * folder: the project a command run in one of its subfolders belongs to,
 * found as git finds `.git`.
 *
 * @param from An absolute folder to start from.
 * @returns That folder, or undefined when no folder up to the top holds one.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdirSync, mkdtempSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { projectRootOf } from "./state_dir.ts";
 *
 * const root = mkdtempSync(join(tmpdir(), "hashline-project-"));
 * mkdirSync(join(root, ".hashline"));
 * mkdirSync(join(root, "src", "deep"), { recursive: true });
 * assert.equal(projectRootOf(join(root, "src", "deep")), root);
 * ```
 */
export function projectRootOf(from: string): string | undefined {
  let dir = resolve(from);
  for (;;) {
    try {
      if (statSync(join(dir, STATE_FOLDER)).isDirectory()) return dir;
    } catch {
      // Not here: look one folder up.
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

// Only a folder made here gets the .gitignore: one the user made is theirs.
// Failures are left for the first write into the folder to report.
function prepare(dir: string, chosen: boolean): void {
  // Most runs find it there; a failed mkdir would cost an error object.
  if (existsSync(dir)) return;
  try {
    mkdirSync(dir);
  } catch (error) {
    if (errnoOf(error) !== "ENOENT" || !chosen) return;
    try {
      mkdirSync(dir, { recursive: true });
    } catch {
      return;
    }
  }
  try {
    writeFileSync(join(dir, ".gitignore"), "*\n", { flag: "wx" });
  } catch {
    // Already there, or not writable: nothing to add.
  }
}
