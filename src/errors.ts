/**
 * Typed refusals that callers must handle. Bad input (a malformed anchor, a
 * wrong type) is a plain `TypeError`, `RangeError` or `SyntaxError`; a refusal
 * that depends on the state of a file or store is a {@link HashlineError}
 * with a stable upper-snake `code` (one of {@link ERROR_CODES}); the HTTP
 * layer alone decides which status each code answers with.
 *
 * @module
 */

/**
 * Every stable error and problem code, in one closed list: a new code is one
 * line here, and a misspelt code is a type error.
 */
export const ERROR_CODES = {
  BAD_INPUT: "BAD_INPUT",
  STALE_ANCHOR: "STALE_ANCHOR",
  OUT_OF_RANGE: "OUT_OF_RANGE",
  OVERLAP: "OVERLAP",
  NOT_READ: "NOT_READ",
  PASTED_PREFIX: "PASTED_PREFIX",
  EMPTY_INSERT: "EMPTY_INSERT",
  BAD_ANCHOR: "BAD_ANCHOR",
  BAD_LINE: "BAD_LINE",
  CHANGED: "CHANGED",
  PATCH_REFUSED: "PATCH_REFUSED",
  OUTSIDE_ROOT: "OUTSIDE_ROOT",
  DENIED: "DENIED",
  NOT_A_FILE: "NOT_A_FILE",
  PERMISSION: "PERMISSION",
  NO_SPACE: "NO_SPACE",
  NOT_TEXT: "NOT_TEXT",
  NOT_FOUND: "NOT_FOUND",
  UNKNOWN_HANDLE: "UNKNOWN_HANDLE",
  INTEGRITY: "INTEGRITY",
  TOO_LARGE: "TOO_LARGE",
  NO_MATCH: "NO_MATCH",
  MANY_MATCHES: "MANY_MATCHES",
  EXISTS: "EXISTS",
  NO_CHANGE: "NO_CHANGE",
  BUSY: "BUSY",
  MOVED_ON: "MOVED_ON",
  INTERNAL: "INTERNAL",
} as const;

/** One of {@link ERROR_CODES}. */
export type ErrorCode = typeof ERROR_CODES[keyof typeof ERROR_CODES];

/** One reason a patch was refused, as listed in a {@link PatchRefusedError}. */
export interface Problem {
  /** Stable upper-snake code: `STALE_ANCHOR`, `OUT_OF_RANGE`, `OVERLAP`, `NOT_READ`, `PASTED_PREFIX`, `EMPTY_INSERT`, `BAD_ANCHOR`, `BAD_RANGE`, `BAD_LINE`, `CHANGED`, … */
  code: string;
  /** Workspace-relative path of the file, when the patch names files. */
  path?: string;
  /** The line the problem is about, 1-based, when there is one. */
  line?: number;
  /** A sentence a model can act on (may span several lines with fresh anchors). */
  message: string;
  /**
   * The lines this problem showed with fresh anchors, as runs of full 32-bit
   * hashes from line `start` on. A refusal's lines count as read: callers
   * that keep a read record enter them, so a resend built from them passes.
   */
  shown?: { start: number; hashes: number[] }[];
}

/** Base class of every typed refusal. */
export class HashlineError extends Error {
  /** Stable upper-snake code (`STALE_ANCHOR`, `OUTSIDE_ROOT`, …). */
  readonly code: string;

  /**
   * Creates a refusal.
   *
   * @param code Stable upper-snake code.
   * @param message A sentence a model can act on.
   */
  constructor(code: string, message: string) {
    super(message);
    this.name = "HashlineError";
    this.code = code;
  }
}

/**
 * A patch refused whole: nothing was written. `message` starts with
 * `Rejected — nothing written.` and lists every problem.
 */
export class PatchRefusedError extends HashlineError {
  /** Every problem found, across every file of the patch. */
  readonly problems: Problem[];

  /**
   * Creates a refusal listing every problem.
   *
   * @param problems Every problem found; the first one's code becomes the error code when all share it.
   */
  constructor(problems: Problem[]) {
    const codes = new Set(problems.map((p) => p.code));
    const code = codes.size === 1 ? problems[0].code : "PATCH_REFUSED";
    const body = problems.map((p) =>
      `- ${p.path ? `${p.path}: ` : ""}${p.message}`
    ).join("\n");
    super(code, `Rejected — nothing written.\n${body}`);
    this.name = "PatchRefusedError";
    this.problems = problems;
  }
}

/** A path that leads outside the workspace root, or to something that is not a regular file. */
export class OutsideRootError extends HashlineError {
  /**
   * @param message Why the path was refused.
   */
  constructor(message: string) {
    super("OUTSIDE_ROOT", message);
    this.name = "OutsideRootError";
  }
}

/** A file, ref or handle that does not exist. */
export class NotFoundError extends HashlineError {
  /**
   * @param message What was not found and what to do next.
   * @param code Defaults to `NOT_FOUND`; `UNKNOWN_HANDLE` for a handle this store never issued.
   */
  constructor(message: string, code = "NOT_FOUND") {
    super(code, message);
    this.name = "NotFoundError";
  }
}

/** Stored bytes that no longer match their ref. */
export class IntegrityError extends HashlineError {
  /**
   * @param message Which object failed its check.
   */
  constructor(message: string) {
    super("INTEGRITY", message);
    this.name = "IntegrityError";
  }
}

/** Content over a size limit (file, source, request body, memory store). */
export class TooLargeError extends HashlineError {
  /**
   * @param message The limit and what to do instead.
   */
  constructor(message: string) {
    super("TOO_LARGE", message);
    this.name = "TooLargeError";
  }
}

/** Content that is not UTF-8 text (invalid sequence, or a NUL byte in the first 8 KiB). */
export class BinaryContentError extends HashlineError {
  /** Byte offset of the offending byte. */
  readonly offset: number;

  /**
   * @param message Names the byte offset.
   * @param offset Byte offset of the offending byte.
   */
  constructor(message: string, offset: number) {
    super("NOT_TEXT", message);
    this.name = "BinaryContentError";
    this.offset = offset;
  }
}

/** A string edit whose old string matched zero or several times, or an export over an existing file. */
export class EditRefusedError extends HashlineError {
  /**
   * @param message Why, and what to send instead.
   * @param code `NO_MATCH`, `MANY_MATCHES` or `EXISTS`.
   */
  constructor(message: string, code = "NO_MATCH") {
    super(code, message);
    this.name = "EditRefusedError";
  }
}

/** A path the workspace is configured never to touch: `.git/`, a `.hashline` folder, or a `deny` glob. */
export class DeniedError extends HashlineError {
  /**
   * @param message Which rule refused the path and how to change it.
   */
  constructor(message: string) {
    super("DENIED", message);
    this.name = "DeniedError";
  }
}

/** A path that names a folder, FIFO, device or socket instead of a regular file. */
export class NotAFileError extends HashlineError {
  /**
   * @param message What the path names instead.
   */
  constructor(message: string) {
    super("NOT_A_FILE", message);
    this.name = "NotAFileError";
  }
}

/** The operating system refused access (permissions, a read-only file or file system). */
export class PermissionError extends HashlineError {
  /**
   * @param message What could not be done.
   */
  constructor(message: string) {
    super("PERMISSION", message);
    this.name = "PermissionError";
  }
}

/** The disk (or quota) is full: nothing was written. */
export class NoSpaceError extends HashlineError {
  /**
   * @param message What could not be written.
   */
  constructor(message: string) {
    super("NO_SPACE", message);
    this.name = "NoSpaceError";
  }
}
