/**
 * Flushes that run in the runtime's worker pool while a commit goes on
 * (docs/workspace.md "Writing"): a temporary written from memory, and the
 * folder a one-file commit renamed into, whose flush an answer waits for.
 *
 * @module
 */
import { fsync } from "../_runtime/fs.ts";
import { closeQuietly } from "../lock/lock_file.ts";
import type { Pin } from "../fs/pin.ts";

/**
 * The flushes of the folders of one-file commits renamed into, each started
 * at its rename and gone once done; answers wait for them, and the caller
 * releases the files' locks once {@link commitsFlushed} resolves (removing
 * a lock file waits behind a flush in progress on many file systems).
 */
const folderFlushes = new Map<Pin, Promise<void>>();

/**
 * Starts the flush of a one-file commit's folder right after its rename, in
 * the runtime's worker pool, while the caller records the commit; the pin
 * is closed once the flush is done.
 *
 * @param pin The folder renamed into.
 * @returns Whether the flush took the pin (the caller then must not close it).
 */
export function flushFolderNow(pin: Pin): boolean {
  if (pin.fd < 0) return false;
  folderFlushes.set(
    pin,
    flushFolder(pin).then(() => {
      pin.close();
      folderFlushes.delete(pin);
    }),
  );
  return true;
}

/**
 * Flushes a pinned folder in the runtime's worker pool; never rejects: some
 * file systems cannot flush a folder, and a rename is atomic without it.
 *
 * @param pin The folder.
 * @returns Settles once the flush has ended.
 */
export function flushFolder(pin: Pin): Promise<void> {
  return flushFd(pin.fd).catch(() => {});
}

/**
 * Resolves once the folders of every commit made so far are flushed: an
 * answer that a write is done waits for it.
 *
 * @returns Settles once those flushes have ended.
 */
export async function commitsFlushed(): Promise<void> {
  if (folderFlushes.size === 0) return;
  await Promise.all(folderFlushes.values());
}

/**
 * A temporary written from memory and kept open while it is flushed in the
 * runtime's worker pool: the commit goes on meanwhile and waits for the
 * flush before its rename.
 */
export class OpenTemp {
  private flushing: Promise<void> | null = null;
  private closed = false;

  /** @param fd The temporary's handle. */
  constructor(readonly fd: number) {}

  /** Starts the flush. */
  flush(): void {
    this.flushing = flushFd(this.fd);
    // Awaited by flushed(); handled now, so a failure is never an unhandled rejection.
    this.flushing.catch(() => {});
  }

  /** Settles when the flush started has ended; rejects with its failure. */
  async flushed(): Promise<void> {
    await this.flushing;
  }

  /** Closes the handle once any flush has ended (at most once; a failed flush is for {@link flushed} to report). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushing?.catch(() => {});
    closeQuietly(this.fd);
  }
}

/** Flushes an open file in the runtime's worker pool, while this thread goes on. */
function flushFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) =>
    fsync(fd, (error) => error ? reject(error) : resolve())
  );
}
