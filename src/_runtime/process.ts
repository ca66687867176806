/**
 * Process identity and signals, kept at the runtime boundary: the workspace
 * journal records which process owns a commit, and crash tests stop a
 * process dead at a chosen step.
 *
 * @module
 */
import process from "node:process";

/** The id of this process. */
export function processId(): number {
  return process.pid;
}

/**
 * Whether a process with this id is running (signal 0 probes without
 * sending anything; a permission error still means it exists).
 */
export function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/** Stops this process at once with SIGKILL, as a crash would (tests only). */
export function killSelf(): void {
  process.kill(process.pid, "SIGKILL");
}
