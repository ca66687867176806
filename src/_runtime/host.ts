/**
 * Which machine boot and which PID namespace this process runs in, so a
 * lock or temporary file can name its holder in a way that another process
 * can judge: a pid means something only on the same boot of the same host
 * and inside the same PID namespace (containers sharing a volume each have
 * their own pids).
 *
 * @module
 */
import { futimesSync, readFileSync, readlinkSync } from "node:fs";
import { hostname, platform, uptime } from "node:os";

let boot: string | null | undefined;
let kernel = false;
let namespace: string | null | undefined;

/**
 * The host's boot id: Linux `/proc/sys/kernel/random/boot_id`; elsewhere
 * the host name and the minute it booted (two processes that disagree on it
 * only judge each other by lease, the safe side); null when unknown.
 */
export function bootId(): string | null {
  if (boot === undefined) {
    try {
      const text = readFileSync("/proc/sys/kernel/random/boot_id", "utf8")
        .trim();
      boot = /^[0-9a-f-]{8,64}$/.test(text) ? text : null;
      kernel = boot !== null;
    } catch {
      boot = null;
    }
    if (boot === null && platform() !== "linux") {
      try {
        const booted = Math.floor((Date.now() / 1000 - uptime()) / 60);
        boot = `${hostname().replace(/\s/g, "_")}@${booted}`;
      } catch {
        boot = null;
      }
    }
  }
  return boot;
}

/**
 * Whether {@link bootId} is the kernel's own id of this boot (Linux), which
 * changes exactly when the host restarts, rather than a guess from the host
 * name and the uptime.
 */
export function bootIdExact(): boolean {
  bootId();
  return kernel;
}

/**
 * This process's PID namespace (`pid:[4026531836]` from Linux
 * `/proc/self/ns/pid`); `host` on platforms without PID namespaces; null
 * on Linux when it cannot be read.
 */
export function pidNamespace(): string | null {
  if (namespace === undefined) {
    try {
      const text = readlinkSync("/proc/self/ns/pid");
      namespace = /^pid:\[\d+\]$/.test(text) ? text : null;
    } catch {
      namespace = platform() === "linux" ? null : "host";
    }
  }
  return namespace;
}

/** Sets an open file's times to now (a lease refresh); false when it cannot. */
export function touchHandle(fd: number): boolean {
  try {
    const now = new Date();
    futimesSync(fd, now, now);
    return true;
  } catch {
    return false;
  }
}
