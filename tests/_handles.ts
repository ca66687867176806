/**
 * Test helper: the open handles of this process under a folder, read from
 * `/proc/self/fd` (Linux). A commit closes the last handle of a file it
 * replaced, and of a lock it released, after its answer
 * (docs/workspace.md "Writing"); these wait for that.
 */
import { readdirSync, readlinkSync } from "node:fs";

/** Whether `/proc/self/fd` lists this process's handles here. */
export function handlesListed(): boolean {
  try {
    return readdirSync("/proc/self/fd").length > 0;
  } catch {
    return false;
  }
}

/** What this process's open handles under `dir` name (a removed file ends with ` (deleted)`). */
export function handlesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target === dir || target.startsWith(`${dir}/`)) out.push(target);
    } catch {
      // Closed while listed.
    }
  }
  return out;
}

/**
 * Waits until this process holds no handle under `dir`, up to `ms`.
 *
 * @returns The handles still open then (empty once all are closed).
 */
export async function handlesClosed(dir: string, ms = 2000): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const open = handlesUnder(dir);
    if (open.length === 0 || Date.now() > deadline) return open;
    await new Promise((r) => setTimeout(r, 1));
  }
}
