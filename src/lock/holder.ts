/**
 * Who holds a lock or wrote a temporary file, said so that any process
 * sharing the folder can judge it: pid, host boot id and PID namespace.
 * A holder is provably dead only when it ran on this boot of this host, in
 * this PID namespace, and its pid is gone; any other holder (another
 * container, another machine on a shared disk, a lock with no identity) is
 * judged by its lease alone, and its temporary files are never removed.
 *
 * @module
 */
import { bootId, pidNamespace } from "../_runtime/host.ts";
import { processAlive, processId } from "../_runtime/process.ts";
import { lineHash32 } from "../hash/fnv.ts";
import { toHex } from "../_internal/bytes.ts";

/** How long a lock holds without a refresh before others may take it over. */
export const LEASE_MS = 15_000;
/** How often a holder refreshes its lease. */
export const REFRESH_MS = 3_000;

/** A holder as a lock file names it. */
export interface Holder {
  pid: number;
  boot: string | null;
  ns: string | null;
}

let tag: string | undefined;

/**
 * Eight hex digits naming this host boot and PID namespace (`00000000`
 * where neither is known), the first half of every temporary's id.
 */
export function hostTag(): string {
  if (tag === undefined) {
    const boot = bootId();
    const ns = pidNamespace();
    tag = boot === null || ns === null
      ? "00000000"
      : lineHash32(`${boot} ${ns}`).toString(16).padStart(8, "0");
  }
  return tag;
}

/** A fresh id for a temporary file: {@link hostTag} then eight random hex digits. */
export function tempId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return hostTag() + toHex(bytes);
}

/** This process as a lock names it: `PID TOKEN BOOT NS`. */
export function holderLine(token: string): string {
  return `${processId()} ${token} ${bootId() ?? "-"} ${
    pidNamespace() ?? "-"
  }\n`;
}

/** The holder a lock file's first line names, or null when it names none (yet). */
export function parseHolder(text: string): Holder | null {
  const m = /^(\d+) (\S+)(?: (\S+) (\S+))?\n/.exec(text) ??
    /^(\d+) (\S+)$/.exec(text);
  if (!m) return null;
  return {
    pid: Number(m[1]),
    boot: m[3] && m[3] !== "-" ? m[3] : null,
    ns: m[4] && m[4] !== "-" ? m[4] : null,
  };
}

/** Whether a holder ran on this boot of this host and in this PID namespace. */
export function local(holder: Holder): boolean {
  const boot = bootId();
  const ns = pidNamespace();
  return boot !== null && ns !== null && holder.boot === boot &&
    holder.ns === ns;
}

/**
 * Whether a holder is provably dead: local, not this process, and its pid
 * gone. (This process's own holds are judged by the caller.)
 */
export function provablyDead(holder: Holder): boolean {
  return local(holder) && holder.pid !== processId() &&
    !processAlive(holder.pid);
}

/**
 * Whether a temporary file named with `pid` and `id` (from
 * {@link tempId}) was left by a process that is provably dead: written on
 * this host boot and PID namespace, by a pid that is gone. Temporaries of
 * other namespaces or machines are never judged dead.
 */
export function tempOwnerGone(pid: number, id: string): boolean {
  return localId(id) && pid !== processId() && !processAlive(pid);
}

/** Whether an id from {@link tempId} was made on this host boot and PID namespace. */
export function localId(id: string): boolean {
  return hostTag() !== "00000000" && id.startsWith(hostTag());
}
