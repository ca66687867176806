/**
 * Opening checked targets and reading them: whole (normal files) or through
 * reused 1 MiB buffers (huge files).
 *
 * @module
 */
import { basename } from "node:path";
import {
  closeSync,
  constants,
  fstatSync,
  open,
  openSync,
  readSync,
} from "../_runtime/fs.ts";
import type { FileHandle } from "../_runtime/file_handle.ts";
import { setImmediate } from "node:timers";
import { changedError, NotAFileError } from "../errors.ts";
import { errnoOf, mapFsError } from "../_internal/errno.ts";
import { partsUnder, type Pin, pinFolder } from "./pin.ts";
import {
  type FileIdentity,
  identityOf,
  sameIdentity,
  type Target,
} from "./confine.ts";

/** Size of one streaming chunk. */
export const CHUNK_BYTES = 1 << 20;

const pool: Uint8Array[] = [];

/** Borrows a chunk buffer (fresh memory is slow to touch, so buffers are reused). */
export function borrowBuffer(): Uint8Array {
  return pool.pop() ?? new Uint8Array(CHUNK_BYTES);
}

/** Returns a borrowed buffer. */
export function returnBuffer(buf: Uint8Array): void {
  if (pool.length < 4) pool.push(buf);
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW |
  constants.O_NONBLOCK;

/**
 * Opens a checked target for reading through its pinned folder, without
 * following a symlink and without blocking (a FIFO swapped in is refused,
 * never waited on), and makes sure the handle is the regular file that was
 * checked (not something swapped in since).
 *
 * @returns The handle and the file's identity as opened.
 */
export async function openTarget(
  target: Target,
  expect?: FileIdentity,
): Promise<{ handle: FileHandle; id: FileIdentity }> {
  let handle: FileHandle;
  try {
    const pin = pinFolder(target.root, partsUnder(target.root, target.dir));
    try {
      handle = await open(pin.path(basename(target.real)), READ_FLAGS);
    } finally {
      pin.close();
    }
  } catch (error) {
    throw openFailure(target, error);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) {
      throw new NotAFileError(
        `Cannot use "${target.input}": it is not a regular file (something else was swapped in).`,
      );
    }
    const id = identityOf(st);
    const want = expect ?? target.stat;
    if (want && (id.dev !== want.dev || id.ino !== want.ino)) {
      throw changedError(target.display);
    }
    if (expect && !sameIdentity(id, expect)) throw changedError(target.display);
    return { handle, id };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Reads a whole checked file through its pinned folder (`pin`, when the
 * caller already holds the folder's pin, as a commit does for its last
 * check). Synchronous system calls: for files small enough to load whole
 * they cost far less than the hand-offs of asynchronous ones.
 */
export function readWhole(
  target: Target,
  pin?: Pin,
): Promise<{ bytes: Uint8Array; id: FileIdentity }> {
  try {
    return Promise.resolve(readWholeSync(target, pin));
  } catch (error) {
    return Promise.reject(error);
  }
}

function readWholeSync(
  target: Target,
  pin?: Pin,
): { bytes: Uint8Array; id: FileIdentity } {
  const fd = openPinned(target, pin);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      throw new NotAFileError(
        `Cannot use "${target.input}": it is not a regular file (something else was swapped in).`,
      );
    }
    const id = identityOf(st);
    const want = target.stat;
    if (want && (id.dev !== want.dev || id.ino !== want.ino)) {
      throw changedError(target.display);
    }
    let bytes = new Uint8Array(id.size);
    let got = 0;
    for (;;) {
      if (got === bytes.length) {
        // The file may have grown since it was stat'ed: a small probe says
        // whether there is more before the buffer is grown and copied.
        const probe = new Uint8Array(4096);
        const more = readSync(fd, probe, 0, probe.length, got);
        if (more === 0) break;
        const grown = new Uint8Array(Math.max(bytes.length * 2, got + more));
        grown.set(bytes.subarray(0, got));
        grown.set(probe.subarray(0, more), got);
        bytes = grown;
        got += more;
        continue;
      }
      const n = readSync(fd, bytes, got, bytes.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return { bytes: got === bytes.length ? bytes : bytes.subarray(0, got), id };
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether two byte arrays hold the same bytes; compares four bytes per step
 * where both are aligned for it (a whole-file re-check before each commit).
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = a.length >>> 2;
    const wa = new Uint32Array(a.buffer, a.byteOffset, words);
    const wb = new Uint32Array(b.buffer, b.byteOffset, words);
    for (let k = 0; k < words; k++) if (wa[k] !== wb[k]) return false;
    i = words << 2;
  }
  for (; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The identity of a checked target as its pinned folder holds it now (the
 * file itself, never what a swapped-in symlink leads to).
 */
export function statTarget(target: Target): FileIdentity {
  const fd = openPinned(target);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      throw new NotAFileError(
        `Cannot use "${target.input}": it is not a regular file.`,
      );
    }
    return identityOf(st);
  } finally {
    closeSync(fd);
  }
}

/** Opens a checked target through its pinned folder (no symlink followed, never blocking). */
function openPinned(target: Target, held?: Pin): number {
  try {
    if (held) return openSync(held.path(basename(target.real)), READ_FLAGS);
    const pin = pinFolder(target.root, partsUnder(target.root, target.dir));
    try {
      return openSync(pin.path(basename(target.real)), READ_FLAGS);
    } finally {
      pin.close();
    }
  } catch (error) {
    throw openFailure(target, error);
  }
}

function openFailure(target: Target, error: unknown): unknown {
  const code = errnoOf(error);
  if (
    code === "ELOOP" || code === "ENOENT" || code === "ENOTDIR" ||
    code === "EXDEV"
  ) {
    return changedError(target.display);
  }
  return mapFsError(error, `Cannot read "${target.display}"`);
}

/** Reads exactly the bytes `[from, to)` of an open file. */
export async function readRange(
  handle: FileHandle,
  from: number,
  to: number,
): Promise<Uint8Array> {
  const out = new Uint8Array(to - from);
  let got = 0;
  while (got < out.length) {
    const { bytesRead } = await handle.read(
      out,
      got,
      out.length - got,
      from + got,
    );
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got === out.length ? out : out.subarray(0, got);
}

/** Bytes read between two turns given back to the event loop. */
const TURN_BYTES = 32 << 20;

/** Lets other tasks run (timers and I/O, not only promise callbacks). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Reads an open file in order from `from` to its end, chunk by chunk. Reads
 * are synchronous (per chunk, far cheaper than asynchronous reads, which
 * pay a hand-off to a worker thread each); the event loop gets a turn every
 * {@link TURN_BYTES}, so a server stays responsive while a huge file
 * streams. A chunk is only valid during its call; `onChunk` returns false
 * to stop early. Chunks are read into `into` when given (a consumer that
 * works on its own buffer then needs no copy), else into a pooled buffer.
 *
 * @returns The file offset reached.
 */
export async function eachChunk(
  handle: FileHandle,
  onChunk: (chunk: Uint8Array, pos: number) => boolean | void,
  from = 0,
  into?: Uint8Array,
): Promise<number> {
  const buf = into ?? borrowBuffer();
  let pos = from;
  let turn = pos + TURN_BYTES;
  try {
    for (;;) {
      const n = readSync(handle.fd, buf, 0, buf.length, pos);
      if (n === 0) break;
      const at = pos;
      pos += n;
      if (onChunk(buf.subarray(0, n), at) === false) break;
      if (pos >= turn) {
        turn = pos + TURN_BYTES;
        await nextTurn();
      }
    }
  } finally {
    if (!into) returnBuffer(buf);
  }
  return pos;
}
