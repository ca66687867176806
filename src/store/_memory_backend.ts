/**
 * Maps in memory behind the {@link Backend} primitives, bounded in bytes.
 *
 * @module
 */
import { TooLargeError } from "../errors.ts";
import type { Backend, HandleRecord } from "./_backend.ts";

/** Objects and handles in maps; refuses an object past the byte bound. */
export class MemoryBackend implements Backend {
  readonly #objects = new Map<string, Uint8Array>();
  readonly #handles = new Map<string, HandleRecord>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  init(): Promise<void> {
    return Promise.resolve();
  }

  readObject(ref: string): Promise<Uint8Array | undefined> {
    return Promise.resolve(this.#objects.get(ref));
  }

  hasObject(ref: string): Promise<boolean> {
    return Promise.resolve(this.#objects.has(ref));
  }

  writeObject(ref: string, bytes: Uint8Array): Promise<void> {
    if (this.#objects.has(ref)) return Promise.resolve();
    if (this.#bytes + bytes.length > this.#maxBytes) {
      return Promise.reject(
        new TooLargeError(
          `The memory store is full: it holds ${this.#bytes} of its ${this.#maxBytes} bytes, and this source needs ${bytes.length} more. Nothing is evicted; use the file store (openFileStore) to keep more revisions, or create the memory store with a larger maxBytes.`,
        ),
      );
    }
    this.#objects.set(ref, bytes.slice());
    this.#bytes += bytes.length;
    return Promise.resolve();
  }

  readHandle(handle: string): Promise<HandleRecord | undefined> {
    const rec = this.#handles.get(handle);
    return Promise.resolve(rec && { ...rec });
  }

  claimHandle(record: HandleRecord): Promise<HandleRecord | undefined> {
    if (!this.#handles.has(record.handle)) {
      this.#handles.set(record.handle, { ...record });
    }
    return this.readHandle(record.handle);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
