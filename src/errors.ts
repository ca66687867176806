/**
 * Typed refusals that callers must handle. Bad input (a malformed anchor, a
 * wrong type) is a plain `TypeError`, `RangeError` or `SyntaxError`; a refusal
 * that depends on the state of a file or store is a {@link HashlineError}
 * with a stable upper-snake `code` (one of {@link ERROR_CODES}); the HTTP
 * layer alone decides which status each code answers with, and the CLI which
 * exit code. `docs/errors.md` is generated from {@link ERROR_ADVICE}.
 *
 * @module
 */

/**
 * Every stable error and problem code, in one closed list, each beside what
 * the caller should do about it: a new code is one line here, and a misspelt
 * code is a type error. The HTTP status of each code is decided at the HTTP
 * edge, its exit code in the CLI; both tables are typed over this list.
 */
export const ERROR_ADVICE = {
  BAD_INPUT:
    "Fix the field, flag or body the message names, then send the request again.",
  BAD_PATH:
    "Name the file with a shorter path: at most 4,096 bytes, 255 bytes per component and 1,024 components.",
  BAD_ANCHOR:
    "Write each anchor as LINE:HH, copied from a read (such as 12:a3), and resend the patch.",
  BAD_RANGE:
    "Put the range's first line in start and its last line in end, then resend the patch.",
  BAD_LINE:
    "Remove the NUL byte, lone surrogate or line terminator from the new line (send several lines instead), then resend.",
  STALE_ANCHOR:
    "Resend the patch with the fresh anchors the message shows, or read the file again.",
  OUT_OF_RANGE:
    "Read the file again and anchor on a line that exists (use append or prepend on an empty file).",
  OVERLAP:
    "Merge the overlapping operations into one, or anchor the insert outside the replaced range, and resend.",
  NOT_READ: "Read the file first, then send the patch built from that read.",
  PASTED_PREFIX:
    'Drop the "LINE:HH|" read prefix from the new lines, or set "literal": true when the file really holds such lines.',
  EMPTY_INSERT: "Give the insert at least one line, or drop the operation.",
  CHANGED:
    "The file changed while the edit was being made and nothing was written: read it again and resend.",
  PATCH_REFUSED:
    "Fix every problem listed in problems (they have different codes) and resend the whole patch.",
  MOVED_ON:
    "The lines the entry wrote have changed since; undo by hand with a patch built from a fresh read.",
  NOT_A_BLOCK:
    "Anchor on a line that opens a block (one of the openers the message names), or name the lines with a range START..END.",
  UNCHECKED:
    "The edit could not be checked (the message says why) and check is refuse: make the file checkable, or send the edit with check warn or off.",
  SYNTAX:
    "Fix the syntax errors the message lists in the new content and resend, or send it with check off.",
  NO_MATCH:
    "Read the current text and resend with an old string copied exactly from it.",
  MANY_MATCHES:
    "Add surrounding text to the old string until it matches once, or set replaceAll.",
  NO_CHANGE:
    "The edit would leave the text exactly as it is, so nothing was made: check the old and new strings (or the patch lines) and send a change.",
  EXISTS: "Choose another target path, or remove the existing file first.",
  OUTSIDE_ROOT: "Name a path inside the workspace root.",
  DENIED:
    "Leave .git/ and .hashline folders alone (or open the workspace with allowGit), and paths the deny globs cover.",
  NOT_A_FILE: "Name a regular file, not a folder, FIFO, device or socket.",
  PERMISSION:
    "The operating system refused access: fix the file's permissions or the mount, then retry.",
  NO_SPACE:
    "The disk or quota is full and nothing was written: free space, then retry.",
  NOT_TEXT:
    "The file is binary or not UTF-8 (the message names the byte offset): leave it alone or convert it to UTF-8.",
  NOT_FOUND:
    "Check the path, ref or route the message names; to make a new file, write it.",
  UNKNOWN_HANDLE:
    "This store never issued that handle: send the source again with put and use the handle it returns.",
  UNKNOWN_TOOL: "Call one of the tools the message lists.",
  TOO_LARGE:
    "Send less: read a window, split the edit, or raise the limit the message names.",
  INTEGRITY:
    "Stored bytes no longer match their ref: report it, and put the source again from a trusted copy.",
  BUSY:
    "Another writer holds the file, or the process is out of file handles: retry in a moment.",
  UNAUTHORIZED: "Send the server's token as Authorization: Bearer TOKEN.",
  FORBIDDEN:
    "Call the server through its own address (Host) and from an allowed origin, or configure a token or allowedOrigins.",
  UNSUPPORTED_MEDIA_TYPE: "Send the request body as application/json.",
  METHOD_NOT_ALLOWED: "Use the method the route takes (see the Allow header).",
  REQUEST_TIMEOUT:
    "The request was too slow to arrive: send it again, in one go.",
  NOT_AVAILABLE:
    "This app cannot serve the route here (no disk): use the stateless routes, or the full app where there is a disk.",
  HISTORY:
    "The edit history's state (the file the message names) could not be read or kept: make it a regular file again (or move it aside), then retry.",
  INTERNAL: "Something unexpected failed: retry once, then report the message.",
} as const;

/** One stable error code: a key of {@link ERROR_ADVICE}. */
export type ErrorCode = keyof typeof ERROR_ADVICE;

/** Every stable error code, in the order of {@link ERROR_ADVICE}. */
export const ERROR_CODE_LIST: readonly ErrorCode[] = Object.freeze(
  Object.keys(ERROR_ADVICE) as ErrorCode[],
);

/**
 * Every stable error code by name (`ERROR_CODES.STALE_ANCHOR` is
 * `"STALE_ANCHOR"`), for callers that compare codes without typing strings.
 */
export const ERROR_CODES: { readonly [C in ErrorCode]: C } = Object.freeze(
  Object.fromEntries(ERROR_CODE_LIST.map((c) => [c, c])),
) as { readonly [C in ErrorCode]: C };

/**
 * Whether a value is one of the stable error codes.
 *
 * @param code Any value, such as the `code` of something thrown.
 * @returns `true` when it is a key of {@link ERROR_ADVICE}.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isErrorCode } from "./errors.ts";
 * assert.equal(isErrorCode("STALE_ANCHOR"), true);
 * assert.equal(isErrorCode("ENOENT"), false);
 * ```
 */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.hasOwn(ERROR_ADVICE, code);
}

/** One reason a patch was refused, as listed in a {@link PatchRefusedError}. */
export interface Problem {
  /** Stable upper-snake code: `STALE_ANCHOR`, `OUT_OF_RANGE`, `OVERLAP`, `NOT_READ`, `PASTED_PREFIX`, `EMPTY_INSERT`, `BAD_ANCHOR`, `BAD_RANGE`, `BAD_LINE`, `CHANGED`, … */
  code: ErrorCode;
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
  readonly code: ErrorCode;

  /**
   * Creates a refusal.
   *
   * @param code Stable upper-snake code, one of {@link ERROR_CODES}.
   * @param message A sentence a model can act on.
   */
  constructor(code: ErrorCode, message: string) {
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
    const code: ErrorCode = codes.size === 1
      ? problems[0].code
      : "PATCH_REFUSED";
    const body = problems.map((p) =>
      `- ${p.path ? `${p.path}: ` : ""}${p.message}`
    ).join("\n");
    super(code, `Rejected — nothing written.\n${body}`);
    this.name = "PatchRefusedError";
    this.problems = problems;
  }
}

/**
 * The `CHANGED` problem: the file (or a folder on its path) is not the one
 * the edit was judged against, so nothing was written.
 *
 * @param path The file, as shown to the model.
 * @param line The first line found to differ, when known.
 * @returns The problem.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changed } from "./errors.ts";
 * assert.equal(changed("a.txt").code, "CHANGED");
 * assert.match(changed("a.txt", 3).message, /line 3 differs/);
 * ```
 */
export function changed(path: string | undefined, line?: number): Problem {
  const p: Problem = {
    code: "CHANGED",
    message:
      `the file or its path changed since this session read it or while the edit was being made${
        line === undefined ? "" : ` (line ${line} differs)`
      }, so nothing was written. Read it again and resend.`,
  };
  if (path !== undefined && path !== "") p.path = path;
  if (line !== undefined) p.line = line;
  return p;
}

/**
 * {@link changed} as the refusal to throw.
 *
 * @param path The file, as shown to the model.
 * @param line The first line found to differ, when known.
 * @returns The refusal.
 */
export function changedError(
  path: string | undefined,
  line?: number,
): PatchRefusedError {
  return new PatchRefusedError([changed(path, line)]);
}

/** A path that leads outside the workspace root, or to something that is not a regular file. */
export class OutsideRootError extends HashlineError {
  /**
   * Creates the error.
   *
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
   * Creates the error.
   *
   * @param message What was not found and what to do next.
   * @param code Defaults to `NOT_FOUND`; `UNKNOWN_HANDLE` for a handle this store never issued.
   */
  constructor(message: string, code: ErrorCode = "NOT_FOUND") {
    super(code, message);
    this.name = "NotFoundError";
  }
}

/** Stored bytes that no longer match their ref. */
export class IntegrityError extends HashlineError {
  /**
   * Creates the error.
   *
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
   * Creates the error.
   *
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
   * Creates the error.
   *
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
   * Creates the error.
   *
   * @param message Why, and what to send instead.
   * @param code `NO_MATCH`, `MANY_MATCHES` or `EXISTS`.
   */
  constructor(message: string, code: ErrorCode = "NO_MATCH") {
    super(code, message);
    this.name = "EditRefusedError";
  }
}

/** A path the workspace is configured never to touch: `.git/`, a `.hashline` folder, or a `deny` glob. */
export class DeniedError extends HashlineError {
  /**
   * Creates the error.
   *
   * @param message Which rule refused the path and how to change it.
   */
  constructor(message: string) {
    super("DENIED", message);
    this.name = "DeniedError";
  }
}

/** A path that names a folder, FIFO, device or socket instead of a regular file. */
export class NotAFileError extends HashlineError {
  /** True when the path names a folder that stands there. */
  readonly folder: boolean;

  /**
   * Creates the error.
   *
   * @param message What the path names instead.
   * @param folder The path names a folder that stands there.
   */
  constructor(message: string, folder = false) {
    super("NOT_A_FILE", message);
    this.name = "NotAFileError";
    this.folder = folder;
  }
}

/** The operating system refused access (permissions, a read-only file or file system). */
export class PermissionError extends HashlineError {
  /**
   * Creates the error.
   *
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
   * Creates the error.
   *
   * @param message What could not be written.
   */
  constructor(message: string) {
    super("NO_SPACE", message);
    this.name = "NoSpaceError";
  }
}
