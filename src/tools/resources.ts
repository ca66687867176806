/**
 * Lazy workspace and store for the HTTP app: created on first use from the
 * root and state folder, so routes that need neither (format, apply) run
 * where there is no file system, and a failed creation is retried on the
 * next request instead of being remembered forever.
 *
 * @module
 */
import type { RevisionStore } from "../store/types.ts";
import type { Workspace } from "../workspace/mod.ts";
import type { CheckMode } from "../check/modes.ts";

/** Where to find or how to create the backing objects. */
export interface ResourceOptions {
  root?: string;
  stateDir?: string;
  workspace?: Workspace;
  store?: RevisionStore;
  /** Path globs the workspace opened from `root` denies (workspace option `deny`). */
  deny?: string[];
  /** Syntax-check mode of the workspace opened from `root` (workspace option `check`). */
  check?: CheckMode;
}

/** Getters that create each object once, on first use. */
export interface Resources {
  /** The workspace; its read records are kept in the state folder. */
  workspace(): Promise<Workspace>;
  /**
   * The workspace for sessions that die with this process (MCP over HTTP):
   * the same files, read records kept in memory only, so short-lived session
   * ids leave nothing behind in the state folder.
   */
  ephemeralWorkspace(): Promise<Workspace>;
  store(): Promise<RevisionStore>;
}

/** The state folder: the given one, `HASHLINE_STORE`, or `.hashline/` under the root. */
export async function resolveStateDir(
  given?: string,
  root?: string,
): Promise<string> {
  if (given) return given;
  const { cwd } = await import("../_runtime/env.ts");
  const { stateDirOf } = await import("../_runtime/state_dir.ts");
  return stateDirOf(root ?? cwd());
}

/** Makes the lazy getters. */
export function lazyResources(options: ResourceOptions): Resources {
  const workspaces = new Map<boolean, Promise<Workspace>>();
  let st: Promise<RevisionStore> | undefined;
  const open = (persistSessions: boolean): Promise<Workspace> => {
    if (options.workspace) return Promise.resolve(options.workspace);
    let ws = workspaces.get(persistSessions);
    if (!ws) {
      ws = (async () => {
        const { openWorkspace } = await import("../workspace/workspace.ts");
        const { cwd } = await import("../_runtime/env.ts");
        const stateDir = await resolveStateDir(options.stateDir, options.root);
        return openWorkspace(options.root ?? cwd(), {
          stateDir,
          persistSessions,
          // The app serves MCP from the workspace without persisted sessions.
          door: persistSessions ? "http" : "mcp",
          deny: options.deny,
          check: options.check,
        });
      })();
      workspaces.set(persistSessions, ws);
      ws.catch(() => workspaces.delete(persistSessions));
    }
    return ws;
  };
  return {
    workspace: () => open(true),
    ephemeralWorkspace: () => open(false),
    store() {
      if (options.store) return Promise.resolve(options.store);
      st ??= (async () => {
        const { openFileStore } = await import("../store/file_store.ts");
        return await openFileStore(
          await resolveStateDir(options.stateDir, options.root),
        );
      })();
      st.catch(() => (st = undefined));
      return st;
    },
  };
}
