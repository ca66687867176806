/**
 * The store's behaviour, shared by every backend: checks, handle allocation,
 * verified reads, source windows, edits, patches, lineage, export and import.
 *
 * @module
 */
import { EditRefusedError, IntegrityError, NotFoundError } from "../errors.ts";
import type { Backend, HandleRecord, InternalOptions } from "./_backend.ts";
import { revisionDiff } from "./_diff.ts";
import { readSourceFile, writeNewFile } from "./_files.ts";
import { handleCandidates, parseId, refOf, sourceBytes } from "./_ref.ts";
import { sourceWindow } from "./_source_read.ts";
import { applyStringEdits } from "./_string_edit.ts";
import { HANDLE_HEX } from "./limits.ts";
import { applyPatch, editContent } from "../patch/apply.ts";
import { parsePatch } from "../patch/parse.ts";
import { refuseFileParts } from "../patch/one_content.ts";
// --- syntax check (src/check) ---
import { SyntaxGate } from "../check/gate.ts";
// --- end syntax check ---
import type { SyntaxCheck } from "../check/mod.ts";
import type {
  EditResult,
  ExportResult,
  PutResult,
  RevisionCheckOptions,
  RevisionEntry,
  RevisionId,
  RevisionOp,
  RevisionPatch,
  RevisionStore,
  SourceRead,
  SourceReadOptions,
  StringEdit,
} from "./types.ts";

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder("utf-8", {
  fatal: true,
  ignoreBOM: true,
});

/** A revision read back and checked against its ref. */
interface Loaded {
  ref: string;
  text: string;
}

/** {@link RevisionStore} over a {@link Backend}. */
export class StoreCore implements RevisionStore {
  readonly #backend: Backend;
  readonly #handleHex: number;
  #ready: Promise<void> | undefined;
  #closed = false;
  readonly #syntax: SyntaxGate;

  constructor(backend: Backend, options: InternalOptions = {}) {
    this.#backend = backend;
    this.#handleHex = options.handleHex ?? HANDLE_HEX;
    this.#syntax = new SyntaxGate("warn", options.stateDir ?? null);
  }

  async put(
    source: string,
    options: RevisionCheckOptions = {},
  ): Promise<PutResult> {
    await this.#open();
    const bytes = sourceBytes(source);
    const check = options.path === undefined
      ? undefined
      : await this.#check(null, source, options, "put");
    const rec = await this.#store(bytes, "put", null);
    return { ref: rec.ref, handle: rec.handle, ...check };
  }

  /** The syntax check of a revision, before it is stored (`refuse` throws `SYNTAX`). */
  async #check(
    before: string | null,
    after: string,
    options: RevisionCheckOptions,
    name: string,
  ): Promise<{ check: SyntaxCheck } | undefined> {
    const { checks } = await this.#syntax.run([{
      path: options.path ?? name,
      before,
      after,
      sniff: options.path === undefined,
    }], options.check);
    const c = checks[0];
    return c && c.status !== "ok" ? { check: c } : undefined;
  }

  async get(refOrHandle: string): Promise<string> {
    await this.#open();
    return (await this.#load(refOrHandle)).text;
  }

  async resolve(refOrHandle: string): Promise<RevisionId> {
    await this.#open();
    const rec = await this.#record(await this.#refOf(refOrHandle));
    return { ref: rec.ref, handle: rec.handle };
  }

  async source(
    refOrHandle: string,
    options?: SourceReadOptions,
  ): Promise<SourceRead> {
    await this.#open();
    return sourceWindow((await this.#load(refOrHandle)).text, options);
  }

  async edit(
    refOrHandle: string,
    edits: StringEdit[],
    options: RevisionCheckOptions = {},
  ): Promise<EditResult> {
    await this.#open();
    const base = await this.#load(refOrHandle);
    const text = applyStringEdits(base.text, edits, `revision ${refOrHandle}`);
    return await this.#derive(base, text, "edit", refOrHandle, options);
  }

  async patch(
    refOrHandle: string,
    patch: RevisionPatch,
    options: RevisionCheckOptions = {},
  ): Promise<EditResult> {
    await this.#open();
    const parsed = parsePatch(patch, { headerless: true });
    if (parsed.dialect) {
      // A revision never changes: the whole of it is the view its hunks are located in.
      const base = await this.#load(refOrHandle);
      const content = applyPatch(base.text, parsed);
      return await this.#derive(base, content, "patch", refOrHandle, options);
    }
    refuseFileParts(
      parsed,
      `revision ${refOrHandle}`,
      "a workspace (edit_file, POST /v1/files/patch)",
    );
    if (parsed.files.length !== 1) {
      throw new TypeError(
        `A revision is one source, but the patch names ${parsed.files.length} files: send the ops of one file (text form without an @@ line, or an array of ops).`,
      );
    }
    const base = await this.#load(refOrHandle);
    const { content } = editContent(base.text, parsed.files[0].ops);
    return await this.#derive(base, content, "patch", refOrHandle, options);
  }

  async history(refOrHandle: string): Promise<RevisionEntry[]> {
    await this.#open();
    const out: RevisionEntry[] = [];
    const seen = new Set<string>();
    let ref: string | null = await this.#refOf(refOrHandle);
    while (ref !== null && !seen.has(ref)) {
      seen.add(ref);
      let rec: HandleRecord;
      try {
        rec = await this.#record(ref);
      } catch (e) {
        // A parent that cannot be found ends the walk; the revision asked for must exist.
        if (out.length > 0 && e instanceof NotFoundError) break;
        throw e;
      }
      out.push({
        ref: rec.ref,
        handle: rec.handle,
        parentRef: rec.parentRef,
        op: rec.op,
        createdAt: rec.createdAt,
      });
      ref = rec.parentRef;
    }
    return out;
  }

  async exportTo(refOrHandle: string, filePath: string): Promise<ExportResult> {
    await this.#open();
    const { ref, text } = await this.#load(refOrHandle);
    const bytes = encoder.encode(text);
    const path = await writeNewFile(filePath, bytes);
    return { path, ref, bytes: bytes.length };
  }

  async importFrom(filePath: string): Promise<PutResult> {
    await this.#open();
    const text = await readSourceFile(filePath);
    const rec = await this.#store(
      sourceBytes(text, `The text of ${filePath}`),
      "put",
      null,
    );
    return { ref: rec.ref, handle: rec.handle };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#backend.close();
  }

  async #open(): Promise<void> {
    if (this.#closed) {
      throw new Error("This revision store is closed; open a new one.");
    }
    this.#ready ??= this.#backend.init().catch((e) => {
      this.#ready = undefined;
      throw e;
    });
    await this.#ready;
  }

  /** Stores bytes, then finds or allocates their handle. */
  async #store(
    bytes: Uint8Array,
    op: RevisionOp,
    parentRef: string | null,
  ): Promise<HandleRecord> {
    const ref = await refOf(bytes);
    await this.#backend.writeObject(ref, bytes);
    return await this.#allocate(ref, op, parentRef);
  }

  async #derive(
    base: Loaded,
    text: string,
    op: RevisionOp,
    name: string,
    options: RevisionCheckOptions = {},
  ): Promise<EditResult> {
    if (text === base.text) {
      throw new EditRefusedError(
        `The ${op} leaves revision ${name} exactly as it is, so no revision was made. Check oldString/newString (or the patch lines) and send a change.`,
        "NO_CHANGE",
      );
    }
    const bytes = sourceBytes(text, `The ${op}ed source`);
    const check = await this.#check(base.text, text, options, name);
    const rec = await this.#store(bytes, op, base.ref);
    const from = await this.#record(base.ref);
    const { diff, diffTruncated } = revisionDiff(
      base.text,
      text,
      from.handle,
      rec.handle,
    );
    return {
      ref: rec.ref,
      handle: rec.handle,
      parentRef: base.ref,
      diff,
      diffTruncated,
      ...check,
    };
  }

  /**
   * The handle of a stored ref: the first candidate not taken by another ref.
   * Candidates are tried in one fixed order and a published handle is never
   * replaced, so racing writers agree and a ref never gets two handles.
   */
  async #allocate(
    ref: string,
    op: RevisionOp,
    parentRef: string | null,
  ): Promise<HandleRecord> {
    for (const handle of handleCandidates(ref, this.#handleHex)) {
      let rec = await this.#readHandle(handle);
      if (rec === undefined) {
        const mine = {
          handle,
          ref,
          parentRef,
          op,
          createdAt: new Date().toISOString(),
        };
        rec = await this.#backend.claimHandle(mine);
        if (rec === undefined) {
          const found = await this.#findHandle(ref);
          if (found) return found;
          throw new IntegrityError(
            `The store refused handle ${handle} for ${ref} but holds no other handle for it: its handle index is damaged.`,
          );
        }
        checkRecord(rec, handle);
      }
      if (rec.ref === ref) return rec;
    }
    throw new IntegrityError(
      `Every handle of ${ref} names another ref: the store's handle index is damaged.`,
    );
  }

  async #findHandle(ref: string): Promise<HandleRecord | undefined> {
    for (const handle of handleCandidates(ref, this.#handleHex)) {
      const rec = await this.#readHandle(handle);
      if (rec === undefined) return undefined;
      if (rec.ref === ref) return rec;
    }
    return undefined;
  }

  async #readHandle(handle: string): Promise<HandleRecord | undefined> {
    const rec = await this.#backend.readHandle(handle);
    if (rec !== undefined) checkRecord(rec, handle);
    return rec;
  }

  /** The handle record of a ref; a stored ref without one (a writer stopped short) gets one now. */
  async #record(ref: string): Promise<HandleRecord> {
    const rec = await this.#findHandle(ref);
    if (rec) return rec;
    if (!(await this.#backend.hasObject(ref))) throw notFound(ref);
    return await this.#allocate(ref, "put", null);
  }

  async #refOf(refOrHandle: string): Promise<string> {
    const id = parseId(refOrHandle, this.#handleHex);
    if (id.kind === "ref") return id.ref;
    const rec = await this.#readHandle(id.handle);
    if (rec === undefined) {
      throw new NotFoundError(
        `Unknown handle ${id.handle}: this store has no such revision. Send the source again with put (source_put) to get a handle.`,
        "UNKNOWN_HANDLE",
      );
    }
    return rec.ref;
  }

  async #load(refOrHandle: string): Promise<Loaded> {
    const ref = await this.#refOf(refOrHandle);
    const bytes = await this.#backend.readObject(ref);
    if (bytes === undefined) throw notFound(ref);
    const actual = await refOf(bytes);
    if (actual !== ref) {
      throw new IntegrityError(
        `Revision ${ref} failed its integrity check: the stored bytes hash to ${actual}. The store is damaged; nothing was read.`,
      );
    }
    try {
      return { ref, text: strictDecoder.decode(bytes) };
    } catch {
      throw new IntegrityError(
        `Revision ${ref} is stored as bytes that are not UTF-8.`,
      );
    }
  }
}

function checkRecord(rec: HandleRecord, handle: string): void {
  if (
    rec.handle !== handle || !rec.ref.startsWith("sha256:" + handle.slice(2))
  ) {
    throw new IntegrityError(
      `Handle ${handle} is recorded for ${rec.ref}, which it is not a prefix of: the store's handle index is damaged.`,
    );
  }
}

function notFound(ref: string): NotFoundError {
  return new NotFoundError(
    `No revision ${ref} in this store. Send the source again with put (source_put) to store it.`,
  );
}
