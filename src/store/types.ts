/**
 * The revision store contract (docs/store.md): one interface that the file,
 * memory and PostgreSQL backends all implement with identical behaviour.
 *
 * @module
 */
import type { CheckMode, SyntaxCheck } from "../check/mod.ts";
import type { Patch, PatchOp } from "../patch/types.ts";

/** A stored revision: its content address and its short handle. */
export interface RevisionId {
  /** `sha256:` + 64 lowercase hex over the exact UTF-8 bytes of the source. */
  ref: string;
  /** `p_` + the ref's first 12 hex (more, in steps of 4, when that was taken). */
  handle: string;
}

/** What `put` and `importFrom` return. */
export interface PutResult extends RevisionId {
  /** Syntax check of the source, present when it found errors or could not run (see {@link RevisionCheckOptions}). */
  check?: SyntaxCheck;
}

/** Syntax check of a revision (docs/syntax-checks.md). */
export interface RevisionCheckOptions {
  /** `warn` (default) reports introduced errors in the result, `refuse` refuses such an edit (`SYNTAX`), `off` parses nothing. */
  check?: CheckMode;
  /**
   * A file name whose extension names the language (`app.ts`). Without it a
   * put is not checked, and an edit or patch is checked with the first
   * installed grammar under which the base revision parses without error.
   */
  path?: string;
}

/** A bounded window of a revision's source. */
export interface SourceReadOptions {
  /** Return the text around the first match of this string (searched from `offset`). */
  query?: string;
  /** First UTF-16 unit of the window (0-based; default 0). */
  offset?: number;
  /** Window size in UTF-16 units (default 8000, at most 16000). */
  limit?: number;
}

/** One window of a revision's source. */
export interface SourceRead {
  /** False when a query had no match (then `code` is empty). */
  found: boolean;
  /** The text of the window. */
  code: string;
  /** UTF-16 offset of the window's first unit. */
  offset: number;
  /** Where the next window starts, or null when this one reaches the end. */
  nextOffset: number | null;
  /** Length of the whole source in UTF-16 units. */
  totalChars: number;
}

/** One string replacement of an edit. */
export interface StringEdit {
  /** Exact text to find (not empty). */
  oldString: string;
  /** Text to put in its place. */
  newString: string;
  /** Replace every match instead of refusing when there are several. */
  replaceAll?: boolean;
}

/** A new revision made by an edit or a patch. */
export interface EditResult extends RevisionId {
  /** The revision the edit was applied to. */
  parentRef: string;
  /** Unified diff from the parent to the new revision (at most 8000 chars). */
  diff: string;
  /** True when `diff` was cut to fit. */
  diffTruncated: boolean;
  /** Syntax check of the new revision, present when it found errors or could not run. */
  check?: SyntaxCheck;
}

/** How a revision first entered the store. */
export type RevisionOp = "put" | "edit" | "patch";

/** One step of a revision's lineage, as {@link RevisionStore.history} lists it. */
export interface RevisionEntry extends RevisionId {
  /** The revision it was made from, or null for a put. */
  parentRef: string | null;
  /** How it first entered the store. */
  op: RevisionOp;
  /** When it first entered the store (ISO 8601). */
  createdAt: string;
}

/** What `exportTo` wrote. */
export interface ExportResult {
  /** Absolute path of the new file. */
  path: string;
  /** The revision written. */
  ref: string;
  /** Bytes written. */
  bytes: number;
}

/** A hashline patch for one source: its operations, a one-file patch, or the text form. */
export type RevisionPatch = PatchOp[] | Patch | string;

/**
 * A content-addressed, append-only store of source revisions. Every method
 * that takes `refOrHandle` accepts a full ref (`sha256:…`) or a handle
 * (`p_…`) this store issued. A refusal leaves every revision as it was.
 */
export interface RevisionStore {
  /**
   * Stores a source (idempotent: the same source gives the same ref and handle).
   *
   * @throws {TooLargeError} Over 1 MiB of UTF-8, or past a memory store's bound.
   * @throws {TypeError} Not a string, or holds an unpaired surrogate.
   */
  put(source: string, options?: RevisionCheckOptions): Promise<PutResult>;
  /**
   * Reads a revision's source, re-hashed against its ref.
   *
   * @throws {NotFoundError} Unknown ref or handle.
   * @throws {IntegrityError} Stored bytes no longer match the ref.
   */
  get(refOrHandle: string): Promise<string>;
  /**
   * Gives the ref and handle of a stored revision.
   *
   * @throws {NotFoundError} Unknown ref or handle.
   */
  resolve(refOrHandle: string): Promise<RevisionId>;
  /**
   * Reads a window of a revision's source, or the text around a query.
   *
   * @throws {RangeError} Limit over 16000, or offset past the end.
   */
  source(refOrHandle: string, options?: SourceReadOptions): Promise<SourceRead>;
  /**
   * Applies string replacements in order, all or nothing, as a new revision.
   *
   * @throws {EditRefusedError} `NO_MATCH`, `MANY_MATCHES` or `NO_CHANGE`.
   */
  edit(
    refOrHandle: string,
    edits: StringEdit[],
    options?: RevisionCheckOptions,
  ): Promise<EditResult>;
  /**
   * Applies a hashline patch to a revision as a new revision.
   *
   * @throws {PatchRefusedError} A wrong anchor, an overlap, … (nothing stored).
   */
  patch(
    refOrHandle: string,
    patch: RevisionPatch,
    options?: RevisionCheckOptions,
  ): Promise<EditResult>;
  /** Lists a revision and its ancestors, newest first. */
  history(refOrHandle: string): Promise<RevisionEntry[]>;
  /**
   * Writes a revision to a new file.
   *
   * @throws {EditRefusedError} `EXISTS` when the file exists (it is left as it was).
   */
  exportTo(refOrHandle: string, filePath: string): Promise<ExportResult>;
  /**
   * Stores the text of a file.
   *
   * @throws {BinaryContentError} Not UTF-8 text.
   */
  importFrom(filePath: string): Promise<PutResult>;
  /** Releases connections; later calls are refused. */
  close(): Promise<void>;
}
