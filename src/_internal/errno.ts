/**
 * One map from the operating system's error codes to the toolkit's typed
 * refusals, so callers write `catch (e) { throw mapFsError(e, what) }`
 * instead of reading `code` off errors in many places.
 *
 * @module
 */
import {
  HashlineError,
  NoSpaceError,
  NotAFileError,
  NotFoundError,
  PermissionError,
} from "../errors.ts";

/** The `code` of a Node-style file system error, if any. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Turns a file system error into a typed refusal whose message starts with
 * `what` (such as `Cannot write "src/a.ts"`): ENOSPC/EDQUOT `NO_SPACE`,
 * EROFS/EACCES/EPERM `PERMISSION`, EMFILE/ENFILE `BUSY`, ENAMETOOLONG
 * `BAD_PATH`. Typed refusals pass through unchanged, and errors with no
 * known code too, with any descriptor path taken out of their message.
 */
export function mapFsError(error: unknown, what: string): unknown {
  if (error instanceof HashlineError) return error;
  switch (errnoOf(error)) {
    case "EACCES":
    case "EPERM":
      return new PermissionError(
        `${what}: the operating system denied access (permissions). Nothing was changed.`,
      );
    case "EROFS":
      return new PermissionError(
        `${what}: the file system is read-only. Nothing was changed.`,
      );
    case "ENOSPC":
    case "EDQUOT":
      return new NoSpaceError(
        `${what}: the disk or quota is full. Nothing was changed; free some space and resend.`,
      );
    case "EISDIR":
      return new NotAFileError(`${what}: it is a folder, not a file.`);
    case "ENOENT":
      return new NotFoundError(`${what}: no such file or folder.`);
    case "EMFILE":
    case "ENFILE":
      return new HashlineError(
        "BUSY",
        `${what}: too many files are open in this process or system. Nothing was changed; resend in a moment.`,
      );
    case "ENAMETOOLONG":
      return new HashlineError(
        "BAD_PATH",
        `${what}: the path or one of its names is too long for the file system. Nothing was changed; use a shorter path.`,
      );
    default:
      return scrubbed(error);
  }
}

/**
 * Folder handles name paths as `/proc/self/fd/N/…` (see the workspace's
 * pins); such a path means nothing to a reader and says how the process
 * works inside, so it never reaches a message.
 */
const DESCRIPTOR_PATH = /\/proc\/self\/fd\/\d+(\/[^\s'"]*)?/g;

/** The error with descriptor paths removed from its message. */
export function scrubbed(error: unknown): unknown {
  if (error instanceof Error && DESCRIPTOR_PATH.test(error.message)) {
    DESCRIPTOR_PATH.lastIndex = 0;
    try {
      error.message = error.message.replace(
        DESCRIPTOR_PATH,
        (_m, rest: string | undefined) =>
          rest ? `…${rest.slice(rest.lastIndexOf("/"))}` : "(a folder)",
      );
    } catch {
      // A frozen message stays as it is.
    }
  }
  DESCRIPTOR_PATH.lastIndex = 0;
  return error;
}
