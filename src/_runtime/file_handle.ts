/**
 * The parts of an open file and its status that the toolkit uses, declared
 * structurally so that published type declarations never name a runtime's
 * type package (`@types/node`): Node's, Deno's and Bun's `node:fs/promises`
 * handles all fit them.
 *
 * @module
 */

/** What a file's status tells. */
export interface FileStatus {
  /** Device of the file system holding it. */
  dev: number;
  /** Inode number. */
  ino: number;
  /** Permission and type bits. */
  mode: number;
  /** Owner. */
  uid: number;
  /** Group. */
  gid: number;
  /** Size in bytes. */
  size: number;
  /** Number of hard links. */
  nlink: number;
  /** Last change of contents, in milliseconds since the epoch. */
  mtimeMs: number;
  /** Last change of status, in milliseconds since the epoch. */
  ctimeMs: number;
  /** Whether it is a regular file. */
  isFile(): boolean;
  /** Whether it is a folder. */
  isDirectory(): boolean;
}

/** An open file, as `open()` of `node:fs/promises` gives it. */
export interface FileHandle {
  /** The descriptor. */
  readonly fd: number;
  /** Reads into `buffer` at `offset`, up to `length` bytes from `position`. */
  read(
    buffer: Uint8Array,
    offset?: number,
    length?: number,
    position?: number | null,
  ): Promise<{ bytesRead: number }>;
  /** Writes `length` bytes of `buffer` from `offset`. */
  write(
    buffer: Uint8Array,
    offset?: number,
    length?: number,
    position?: number | null,
  ): Promise<{ bytesWritten: number }>;
  /** Writes all of `data`. */
  writeFile(data: string | Uint8Array): Promise<void>;
  /** The file's status. */
  stat(): Promise<FileStatus>;
  /** Sets the permission bits. */
  chmod(mode: number): Promise<void>;
  /** Sets the owner and group. */
  chown(uid: number, gid: number): Promise<void>;
  /** Flushes data and metadata to the disk. */
  sync(): Promise<void>;
  /** Closes the file. */
  close(): Promise<void>;
}
