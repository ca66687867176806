/**
 * The few primitives a storage backend provides; everything else (checks,
 * handle allocation, reads, edits, lineage) is shared, so every backend
 * behaves the same.
 *
 * @module
 */
import type { RevisionOp } from "./types.ts";

/** A published handle with the lineage of the revision it names. */
export interface HandleRecord {
  handle: string;
  ref: string;
  parentRef: string | null;
  op: RevisionOp;
  createdAt: string;
}

/** Storage primitives. Every write is create-if-absent: nothing is replaced or removed. */
export interface Backend {
  /** Creates folders or tables on first use (idempotent, safe when several processes race). */
  init(): Promise<void>;
  /** The stored bytes of a ref, unchecked, or undefined. */
  readObject(ref: string): Promise<Uint8Array | undefined>;
  /** Whether bytes are stored for a ref. */
  hasObject(ref: string): Promise<boolean>;
  /**
   * Stores the bytes of a ref unless already there. Bytes already stored are
   * checked where they can be wrong.
   *
   * @throws {TooLargeError} Past a bound of the backend.
   * @throws {IntegrityError} Bytes already stored under the ref do not match it.
   */
  writeObject(ref: string, bytes: Uint8Array): Promise<void>;
  /** The record published under a handle, or undefined. */
  readHandle(handle: string): Promise<HandleRecord | undefined>;
  /**
   * Publishes the record unless its handle is taken, then returns the record
   * now under that handle (this one or the one that was first); undefined when
   * the backend refused it because the ref already has another handle.
   */
  claimHandle(record: HandleRecord): Promise<HandleRecord | undefined>;
  /** Releases connections. */
  close(): Promise<void>;
}

/** Internal options the tests use to force rare cases. */
export interface InternalOptions {
  /** Hex digits of a first handle (12; tests use fewer to force collisions). */
  handleHex?: number;
  /** Folder whose `checks/` keeps syntax-check receipts (default: memory only). */
  stateDir?: string;
}
