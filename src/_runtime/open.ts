/**
 * Runtime specifics of the revision store's own files: the flags that open
 * an imported file as the workspace opens its files (no symlink followed,
 * no blocking on a FIFO), and the mark that says on which host and in which
 * PID namespace a temp file's writer runs, so a sweeper can tell a writer it
 * can probe from one it cannot.
 *
 * @module
 */
import { hostname } from "node:os";
import { constants, readFileSync, readlinkSync } from "./fs.ts";

/**
 * Read-only, never through a symlink in the last component (`ELOOP`), never
 * waiting for a FIFO's writer. `O_NOFOLLOW` and `O_NONBLOCK` are 0 where the
 * platform lacks them; the caller still judges the opened handle.
 */
export const IMPORT_OPEN_FLAGS: number = constants.O_RDONLY |
  (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

let mark: string | undefined;

/**
 * A short token naming this host boot and this PID namespace: two
 * processes with the same token can probe each other's pids; with another
 * token (another machine, container or boot), a pid says nothing.
 *
 * On Linux it comes from the boot id and the PID namespace's inode; where
 * those are missing it comes from the host name (platforms without PID
 * namespaces).
 *
 * @returns Letters and digits only, at most 48 characters.
 */
export function writerMark(): string {
  if (mark !== undefined) return mark;
  let source: string;
  try {
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8")
      .trim();
    const ns = readlinkSync("/proc/self/ns/pid").replace(/\D/g, "");
    source = `${boot.replace(/[^0-9a-f]/gi, "")}n${ns}`;
  } catch {
    source = `h${hostname()}`;
  }
  mark = source.replace(/[^A-Za-z0-9]/g, "").slice(0, 48) || "unknown";
  return mark;
}
