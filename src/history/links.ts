/**
 * File operations on symlinks (docs/workspace.md "Symlinks"): a delete or
 * rename acts on the name it is given, so a symlink there is removed or
 * moved as a link, never the file it points to. A link has no lines, so
 * it needs no read and takes no line ops; a renamed link keeps its text
 * and must still lead to something inside the root from its new place.
 *
 * @module
 */
import { dirname, isAbsolute, join } from "node:path";
import { realpathSync } from "../_runtime/fs.ts";
import type { Confinement, Target } from "../fs/confine.ts";
import { inside } from "../fs/paths.ts";
import type { FileAction } from "../patch/file_ops.ts";
import type { Problem } from "../patch/problems.ts";
import type { FilePatch, Patch } from "../patch/types.ts";
import type { EntryFile, RecordFile } from "./types.ts";
import type { StageEntry } from "../commit/stage.ts";
import { type ResolveScope, resolveTarget } from "../fs/resolve.ts";

/** A delete or rename of a symlink, judged. */
export interface LinkAction {
  /** As the line ops' file actions are, with no ops. */
  action: FileAction;
  /** The link itself. */
  from: Target;
  /** The rename's target. */
  to?: Target;
}

/** Whether a file entry deletes or renames a path, acting on its name. */
export function actsOnName(f: FilePatch | undefined): boolean {
  return f?.delete === true || f?.rename !== undefined;
}

/** Where a link with `text` placed at `at` (a real path) leads, when it leads anywhere. */
function leadsTo(at: string, text: string): string | null {
  try {
    return realpathSync(isAbsolute(text) ? text : join(dirname(at), text));
  } catch {
    return null;
  }
}

/**
 * Splits off the file entries that delete or rename a symlink and judges
 * them: no line ops, no other entry naming the link or the rename's
 * target, a rename target that is free, and a renamed link that leads
 * inside the root from its old and its new place.
 *
 * @param patch The patch, its paths as resolved.
 * @param targetOf The target each path resolved to.
 * @param conf The root's rules.
 * @param problems Gathers what is wrong.
 * @returns The rest of the patch, and the link actions.
 */
export function splitLinks(
  patch: Patch,
  targetOf: (path: string) => Target | undefined,
  conf: Confinement,
  problems: Problem[],
): { rest: Patch; links: LinkAction[] } {
  const isLink = (f: FilePatch) =>
    actsOnName(f) && targetOf(f.path)?.link !== undefined;
  const links: LinkAction[] = [];
  const named = new Map<string, number>();
  const name = (p: string) => named.set(p, (named.get(p) ?? 0) + 1);
  for (const f of patch.files) {
    name(f.path);
    if (f.rename !== undefined) name(f.rename);
    for (const m of f.moves ?? []) if (m.to !== undefined) name(m.to);
  }
  for (const f of patch.files.filter(isLink)) {
    const from = targetOf(f.path)!;
    const text = from.link!;
    const size = problems.length;
    const bad = (code: Problem["code"], message: string) =>
      problems.push({ code, path: f.path, message });
    if (f.ops.length > 0 || (f.moves?.length ?? 0) > 0) {
      bad(
        "BAD_INPUT",
        `it is a symlink (to "${text}"), which has no lines of its own: ${
          f.delete ? "delete" : "rename"
        } it without ops, or edit the file it points to by its own path.`,
      );
    }
    for (const p of [f.path, ...(f.rename !== undefined ? [f.rename] : [])]) {
      if ((named.get(p) ?? 0) > 1) {
        bad(
          "OVERLAP",
          `"${p}" is named again by another part of the patch, which ${
            f.delete ? "deletes" : "renames"
          } the symlink "${f.path}": name it once.`,
        );
      }
    }
    let to: Target | undefined;
    if (f.rename !== undefined) {
      to = targetOf(f.rename)!;
      if (to.exists) {
        bad(
          "EXISTS",
          `cannot rename the symlink to "${f.rename}": a file stands there, and a rename never overwrites. Choose another path.`,
        );
      } else {
        const now = leadsTo(from.real, text);
        const then = leadsTo(to.real, text);
        if (
          now === null || !inside(now, conf.root) || then === null ||
          !inside(then, conf.root)
        ) {
          bad(
            "OUTSIDE_ROOT",
            `cannot rename the symlink (to "${text}") to "${f.rename}": ${
              now === null || !inside(now, conf.root)
                ? "it leads outside the workspace root or nowhere"
                : "from there it would lead outside the workspace root or nowhere"
            }, and a rename never makes a link that does. Delete it, or change it outside hashline.`,
          );
        }
      }
    }
    if (problems.length > size) continue;
    links.push({
      action: {
        path: f.path,
        action: f.delete ? "delete" : "rename",
        ...(f.rename !== undefined ? { to: f.rename } : {}),
        ops: [],
      },
      from,
      ...(to ? { to } : {}),
    });
  }
  return {
    rest: { ...patch, files: patch.files.filter((f) => !isLink(f)) },
    links,
  };
}

/** A link's line in a result: `Deleted symlink P (to "T")`, `Renamed symlink P → Q (to "T")`. */
export function linkHead(path: string, display: string, text: string): string {
  return path === display
    ? `Deleted symlink ${path} (to "${text}")`
    : `Renamed symlink ${path} → ${display} (to "${text}")`;
}

/** What an undo of a link's delete, rename or re-creation writes and lists. */
export interface LinkUndo {
  /** The file as the undo lists it. */
  file: EntryFile & { diff: string };
  /** What the commit does. */
  stage: StageEntry[];
}

/**
 * Plans the undo of one entry file that names a symlink: a deleted link
 * is put back with the same text while its path is free; a renamed link
 * goes back while it is still the link the entry made and its old path is
 * free; a link put back by an undo is removed while it is still that link.
 * Else `MOVED_ON`, and nothing is written.
 *
 * @param ctx The workspace.
 * @param id The entry undone.
 * @param f Its file, with `link` set.
 * @param problems Gathers what stands in the way.
 */
export async function planLinkUndo(
  ctx: ResolveScope,
  id: string,
  f: RecordFile,
  problems: Problem[],
): Promise<LinkUndo | null> {
  const text = f.link!;
  const keep = { keepLink: true };
  const here = await resolveTarget(ctx, f.path, "write", keep);
  const moved = (path: string, message: string) => {
    problems.push({ code: "MOVED_ON", path, line: 1, message });
    return null;
  };
  const stillOurs = here.exists && here.link === text;
  const base = { added: 0, removed: 0, link: text, diff: "" };
  if (f.deleted) {
    if (here.exists) {
      return moved(
        here.display,
        `a file stands at this path again since ${id} removed the symlink, so ${id} cannot be undone.`,
      );
    }
    return {
      file: { path: here.display, created: true, ...base },
      stage: [{ target: here, link: text }],
    };
  }
  if (!stillOurs) {
    return moved(
      here.display,
      `it is no longer the symlink (to "${text}") ${id} left here, so ${id} cannot be undone.`,
    );
  }
  if (f.renamedFrom === undefined) {
    return {
      file: { path: here.display, deleted: true, ...base },
      stage: [{ target: here, remove: true }],
    };
  }
  const back = await resolveTarget(ctx, f.renamedFrom, "write", keep);
  if (back.exists) {
    return moved(
      back.display,
      `a file stands at this path again since ${id} renamed the symlink to ${here.display}, so ${id} cannot rename it back.`,
    );
  }
  return {
    file: { path: back.display, renamedFrom: here.display, ...base },
    stage: [{ target: here, remove: true }, { target: back, link: text }],
  };
}
