/**
 * Lazy workspace and store for the HTTP app: created on first use from the
 * root and state folder, so routes that need neither (format, apply) run
 * where there is no file system, and a failed creation is retried on the
 * next request instead of being remembered forever.
 *
 * @module
 */
import type { RevisionStore } from "../store/types.ts";
import type { WorkspacePort } from "./_ports.ts";

/** Where to find or how to create the backing objects. */
export interface ResourceOptions {
  root?: string;
  stateDir?: string;
  workspace?: WorkspacePort;
  store?: RevisionStore;
}

/** Getters that create each object once, on first use. */
export interface Resources {
  workspace(): Promise<WorkspacePort>;
  store(): Promise<RevisionStore>;
}

/** The state folder: the given one, `HASHLINE_STORE`, or `.hashline/` under the working folder. */
export async function resolveStateDir(given?: string): Promise<string> {
  if (given) return given;
  const { cwd, getEnv } = await import("../_runtime/env.ts");
  const { join } = await import("node:path");
  return getEnv("HASHLINE_STORE") || join(cwd(), ".hashline");
}

/** Makes the lazy getters. */
export function lazyResources(options: ResourceOptions): Resources {
  let ws: Promise<WorkspacePort> | undefined;
  let st: Promise<RevisionStore> | undefined;
  return {
    workspace() {
      if (options.workspace) return Promise.resolve(options.workspace);
      ws ??= (async () => {
        const { openWorkspace } = await import("../workspace/mod.ts");
        const { cwd } = await import("../_runtime/env.ts");
        const stateDir = await resolveStateDir(options.stateDir);
        return openWorkspace(options.root ?? cwd(), {
          stateDir,
        }) as WorkspacePort;
      })();
      ws.catch(() => (ws = undefined));
      return ws;
    },
    store() {
      if (options.store) return Promise.resolve(options.store);
      st ??= (async () => {
        const { openFileStore } = await import("../store/file_store.ts");
        return await openFileStore(await resolveStateDir(options.stateDir));
      })();
      st.catch(() => (st = undefined));
      return st;
    },
  };
}
