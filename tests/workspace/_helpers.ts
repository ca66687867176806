/** Shared set-up for the workspace tests: temp trees and byte snapshots. */
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rm,
} from "node:fs/promises";
import { Buffer } from "node:buffer";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import {
  openWorkspace,
  type Workspace,
  type WorkspaceOptions,
} from "../../src/workspace/mod.ts";

/** A temp base folder with `root/`, a sibling `outside/` and a state folder `state/`. */
export interface Tree {
  base: string;
  root: string;
  outside: string;
  state: string;
  open(options?: WorkspaceOptions): Workspace;
  cleanup(): Promise<void>;
}

/** Makes a fresh tree. */
export async function makeTree(): Promise<Tree> {
  const base = await realpath(await mkdtemp(join(tmpdir(), "hashline-ws-")));
  const root = join(base, "root");
  const outside = join(base, "outside");
  const state = join(base, "state");
  await mkdir(root);
  await mkdir(outside);
  return {
    base,
    root,
    outside,
    state,
    open: (options = {}) =>
      openWorkspace(root, { stateDir: state, ...options }),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/**
 * Every entry under `dir` (files as bytes in hex, symlinks as their target,
 * folders and other kinds by name), skipping `skip` folders.
 */
export async function snapshot(
  dir: string,
  skip: string[] = [],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string) => {
    for (const name of (await readdir(d)).sort()) {
      const full = join(d, name);
      if (skip.includes(full)) continue;
      const rel = relative(dir, full);
      const st = await lstat(full);
      if (st.isSymbolicLink()) out.set(rel, `link:${await readlink(full)}`);
      else if (st.isDirectory()) {
        out.set(rel, "dir");
        await walk(full);
      } else if (st.isFile()) {
        out.set(
          rel,
          `file:${st.mode & 0o7777}:${
            Buffer.from(await readFile(full)).toString("hex")
          }`,
        );
      } else out.set(rel, "special");
    }
  };
  await walk(dir);
  return out;
}

/** Files whose names mark them as commit leftovers (temporaries or backups). */
export async function leftovers(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (d: string) => {
    for (const name of await readdir(d)) {
      const full = join(d, name);
      const st = await lstat(full);
      if (st.isDirectory()) await walk(full);
      else if (/\.hashline-(new|old|one)\.tmp$|\.hashline-lock/.test(name)) {
        found.push(relative(dir, full));
      }
    }
  };
  await walk(dir);
  return found;
}

/** The 2-hex anchor of line n as shown in a read's text. */
export function anchorOf(text: string, n: number): string {
  const line = text.split("\n").find((l) => l.startsWith(`${n}:`));
  if (!line) throw new Error(`line ${n} not in view`);
  return line.slice(0, line.indexOf("|"));
}
