/**
 * Files on disk under one root (docs/workspace.md): anchored reads that the
 * session remembers, and patches validated against the live files and
 * committed all-or-nothing.
 *
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { cwd, getEnv } from "../_runtime/env.ts";
import { type FileHandle, realpathSync, statSync } from "../_runtime/fs.ts";
import { formatLine, readWindow } from "../anchor/format.ts";
import { splitLines } from "../anchor/split.ts";
import {
  EditRefusedError,
  NotFoundError,
  PatchRefusedError,
  PermissionError,
  type Problem,
  TooLargeError,
} from "../errors.ts";
import { foldHash, lineHash32 } from "../hash/fnv.ts";
import type { Patch, PatchOp, PlannedEdit } from "../patch/types.ts";
import { ambiguousAnchors } from "../patch/ambiguous.ts";
import { LineMemory } from "../patch/memory.ts";
import { planOps, readFirst } from "../patch/plan.ts";
import { changed, changedError } from "../patch/problems.ts";
import { validateOps } from "../patch/validate.ts";
import {
  firstStaleLine as staleIn,
  judgeWholeWrite,
} from "../patch/whole_write.ts";
import {
  commitFiles,
  recoverJournals,
  type RecoveryReport,
} from "./_commit.ts";
import { Confinement, type Target } from "./_confine.ts";
import { readWhole, sameBytes, statTarget } from "./_io.ts";
import { LineIndexes } from "./_line_index.ts";
import { lockFiles, type LockSpec } from "./_lock.ts";
import { partsUnder, type Pin } from "./_pin.ts";
import { checkSession, SessionRecords } from "./_records.ts";
import {
  firstStaleLine,
  rewrite,
  scanForPatch,
  streamRead,
} from "./_stream.ts";
import { fileText } from "./_text.ts";

export type { RecoveryReport } from "./_commit.ts";

/** Options of {@link openWorkspace}. */
export interface WorkspaceOptions {
  /** Whose reads count when none is named per call (default `"default"`). */
  session?: string;
  /**
   * State folder holding `sessions/` and `journal/` (default: `HASHLINE_STORE`,
   * else `.hashline` under the working folder).
   */
  stateDir?: string;
  /** Keep read records in `<state>/sessions/` so separate processes form one session (default true). */
  persistSessions?: boolean;
  /** Largest file read or patched, in bytes (default 4 GiB). */
  maxFileBytes?: number;
  /** Display limit of one line in reads and fresh anchors, in code points (default 2000). */
  maxLineChars?: number;
  /** Files larger than this many bytes are streamed instead of loaded (default 64 MiB). */
  streamThreshold?: number;
  /** Byte-scanning engine for streamed files (default: the hash module's choice). */
  engine?: "wasm" | "ts";
  /**
   * Globs (root-relative, `/` separators; `*` within a name, `**` across
   * folders) of paths never read or written: refused with `DENIED`.
   */
  deny?: string[];
  /** Allow writes under `.git/` and `.hashline` folders (default false: refused with `DENIED`). */
  allowGit?: boolean;
  /** Default of {@link PatchOptions.rebase} (default false). */
  rebase?: boolean;
  /** Most files whose read records one session keeps (default 2000; the least recently used go first). */
  maxSessionFiles?: number;
  /** How long a patch waits for another writer's lock on a file before giving up with `BUSY` (default 30 s). */
  lockTimeoutMs?: number;
}

/** A read window. */
export interface ReadOptions {
  /** First line, 1-based (default 1). */
  offset?: number;
  /** Most lines (default 2000). */
  limit?: number;
  /** Session the read counts for (default the workspace's). */
  session?: string;
}

/** One window of an anchored read of a file. */
export interface FileRead {
  /** Root-relative path with `/` separators. */
  path: string;
  /** `LINE:HH|content` lines joined with `\n`. */
  text: string;
  /** Lines in the whole file. */
  totalLines: number;
  /** First line shown. */
  startLine: number;
  /** Last line shown (`startLine - 1` when none). */
  endLine: number;
  /** Where the next window starts, or null at the end. */
  nextOffset: number | null;
}

/** Options of {@link Workspace.patch}. */
export interface PatchOptions {
  /** Validate and show the diff without writing anything. */
  dryRun?: boolean;
  /** Session whose reads count (default the workspace's). */
  session?: string;
  /**
   * Apply an op whose lines only moved (lines inserted or removed above it)
   * where they now stand, when its read region stands unchanged at exactly
   * one place (default: the workspace's `rebase` option, else false).
   */
  rebase?: boolean;
}

/** What a patch did to one file. */
export interface FileEdit {
  /** Root-relative path with `/` separators. */
  path: string;
  /** Lines written (new or replacing). */
  added: number;
  /** Lines removed (deleted or replaced). */
  removed: number;
  /** The patch created the file. */
  created: boolean;
  /** Fresh anchors of each changed region, ±2 lines (`LINE:HH|content`). */
  anchors: string;
  /** Unified diff (`""` when nothing changed). */
  diff: string;
}

/** The result of a patch. */
export interface PatchResult {
  /** Nothing was written. */
  dryRun: boolean;
  /** One entry per file, in patch order. */
  files: FileEdit[];
  /** What a model reads: `Edited PATH (+a -r)`, the fresh anchors and the diff, per file. */
  summary: string;
  /** Ops applied where their lines moved to (`op 2: lines 40–42 → 43–45`), with rebase on. */
  rebased: string[];
  /** Things that did not stop the commit but that the caller should know (a read record not saved). */
  warnings: string[];
}

/** Whether a path names a file, and how big it is (see {@link Workspace.stat}). */
export interface PathInfo {
  /** Root-relative path with `/` separators. */
  path: string;
  /** A regular file is there. */
  exists: boolean;
  /** Its size in bytes, or null when it does not exist. */
  size: number | null;
}

/** The whole text of a file (see {@link Workspace.readText}). */
export interface TextRead {
  /** Root-relative path with `/` separators. */
  path: string;
  /** The decoded text, BOM included when the file has one. */
  text: string;
  /** Lines in the file. */
  totalLines: number;
}

/** Options of {@link Workspace.write}. */
export interface WriteOptions {
  /** Session whose reads count (default the workspace's). */
  session?: string;
}

/** The result of writing a whole file. */
export interface WriteResult {
  /** Root-relative path with `/` separators. */
  path: string;
  /** The file did not exist before. */
  created: boolean;
  /** Lines added, as the diff counts them. */
  added: number;
  /** Lines removed, as the diff counts them. */
  removed: number;
  /** Lines in the new content. */
  totalLines: number;
  /** Unified diff against the old content. */
  diff: string;
  /** `Created PATH (N lines)` or `Wrote PATH (+a -r)`, then the diff. */
  summary: string;
  /** Things that did not stop the write but that the caller should know. */
  warnings: string[];
}

/** Files under one root, with sessions, confinement and all-or-nothing commits. */
export interface Workspace {
  /** Real path of the root. */
  readonly root: string;
  /** The state folder (sessions and journal). */
  readonly stateDir: string;
  /** The default session. */
  readonly session: string;
  /**
   * Reads a window of a file as `LINE:HH|content` lines and records the
   * lines' full hashes for the session.
   */
  read(path: string, window?: ReadOptions): Promise<FileRead>;
  /** Validates a patch against the live files and commits it to every file, or to none. */
  patch(
    patch: Patch | string | object,
    options?: PatchOptions,
  ): Promise<PatchResult>;
  /** Creates a file, or replaces one the session has read, with exactly this content. */
  write(
    path: string,
    content: string,
    options?: WriteOptions,
  ): Promise<WriteResult>;
  /**
   * Creates a file that must not exist yet (never overwrites, even under a
   * race): refused with `EXISTS` when something is there.
   */
  create(
    path: string,
    content: string,
    options?: WriteOptions,
  ): Promise<WriteResult>;
  /** Checks a path against the root and says whether a regular file is there. */
  stat(path: string): Promise<PathInfo>;
  /**
   * Reads a whole file as text and records every line as seen by the
   * session (for callers that edit by string matching and then patch).
   */
  readText(path: string, options?: WriteOptions): Promise<TextRead>;
  /** Frees a session's read records, in memory and in the state folder. */
  forgetSession(session: string): Promise<void>;
  /** Finishes or undoes commits that a crashed process left half done (also run before each write). */
  recover(): Promise<RecoveryReport>;
}

const GiB = 1024 ** 3;

type Editing = typeof import("./_editing.ts");
let editing: Promise<Editing> | undefined;
function loadEditing(): Promise<Editing> {
  return editing ??= import("./_editing.ts");
}
/**
 * Size past which reads stream (see {@link FileWorkspace.streamsRead}): on a
 * 1 MiB source file the two paths cost about the same, and past it the
 * streamed one pulls ahead (`bench/workspace_huge.ts --size=16` compares a
 * read of 16 MiB with reading it whole and splitting it).
 */
const READ_STREAM_BYTES = 1024 ** 2;

const encoder = new TextEncoder();

interface Prepared {
  target: Target;
  plan: PlannedEdit[];
  oldCount: number;
  oldLine(n: number): string | undefined;
  write(handle: FileHandle): Promise<void>;
  unchanged: boolean;
  bytes?: Uint8Array;
  verify?(pin: Pin): Promise<boolean>;
}

function positive(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value >= 0) || !Number.isFinite(value)) {
    throw new TypeError(
      `Cannot open workspace: ${name} must be a number ≥ 0, got ${
        String(value)
      }.`,
    );
  }
  return value;
}

/** Real path of `path`, or of its deepest existing ancestor joined with the rest. */
function realish(path: string): string {
  const rest: string[] = [];
  let cur = path;
  for (;;) {
    try {
      return join(realpathSync(cur), ...rest.reverse());
    } catch {
      const parent = resolve(cur, "..");
      if (parent === cur) return path;
      rest.push(cur.slice(parent.length).replace(/^[\\/]+/, ""));
      cur = parent;
    }
  }
}

async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  let at = 0;
  while (at < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, at, bytes.length - at);
    at += bytesWritten;
  }
}

class FileWorkspace implements Workspace {
  readonly root: string;
  readonly stateDir: string;
  readonly session: string;
  private readonly conf: Confinement;
  private readonly records: SessionRecords;
  private readonly indexes: LineIndexes;
  private readonly maxLineChars?: number;
  private readonly streamThreshold: number;
  private readonly engine?: "wasm" | "ts";
  private readonly rebaseDefault: boolean;
  private readonly lockTimeoutMs: number;
  private readonly maxSessionFiles: number;
  private started?: Promise<RecoveryReport>;
  private notices: string[] = [];

  constructor(root: string, options: WorkspaceOptions) {
    if (typeof root !== "string" || root === "") {
      throw new TypeError(
        "Cannot open workspace: root must be a non-empty folder path.",
      );
    }
    if (root.includes("\0")) {
      throw new TypeError(
        "Cannot open workspace: the root path holds a NUL byte.",
      );
    }
    const given = resolve(cwd(), root);
    let real: string;
    try {
      real = realpathSync(given);
    } catch {
      throw new NotFoundError(
        `Cannot open workspace: the root folder "${root}" does not exist.`,
      );
    }
    if (!statSync(real).isDirectory()) {
      throw new NotFoundError(
        `Cannot open workspace: "${root}" is not a folder.`,
      );
    }
    this.root = real;
    this.session = checkSession(options.session ?? "default");
    const state = options.stateDir ??
      (getEnv("HASHLINE_STORE") || join(cwd(), ".hashline"));
    this.stateDir = realish(resolve(cwd(), state));
    const maxFileBytes = positive(
      "maxFileBytes",
      options.maxFileBytes,
      4 * GiB,
    );
    this.streamThreshold = positive(
      "streamThreshold",
      options.streamThreshold,
      64 * 1024 ** 2,
    );
    this.lockTimeoutMs = positive(
      "lockTimeoutMs",
      options.lockTimeoutMs,
      30_000,
    );
    this.maxSessionFiles = positive(
      "maxSessionFiles",
      options.maxSessionFiles,
      2000,
    );
    if (options.maxLineChars !== undefined) {
      readWindow(0, { maxLineChars: options.maxLineChars });
      this.maxLineChars = options.maxLineChars;
    }
    if (
      options.engine !== undefined && options.engine !== "wasm" &&
      options.engine !== "ts"
    ) {
      throw new TypeError(
        `Cannot open workspace: engine must be "wasm" or "ts".`,
      );
    }
    this.engine = options.engine;
    this.rebaseDefault = options.rebase === true;
    this.conf = new Confinement(real, given, this.stateDir, maxFileBytes, {
      deny: options.deny,
      allowGit: options.allowGit,
    });
    this.records = new SessionRecords(
      options.persistSessions === false
        ? null
        : join(this.stateDir, "sessions"),
      this.maxSessionFiles,
    );
    this.indexes = new LineIndexes(join(this.stateDir, "lineindex"));
  }

  private start(): Promise<RecoveryReport> {
    return this.started ??= (async () => {
      await this.records.cleanTemps();
      return await this.settle();
    })();
  }

  /** Settles commits of dead processes; runs before every write, so a long-lived server never builds on one cut short. */
  private async settle(): Promise<RecoveryReport> {
    const report = await recoverJournals(
      this.stateDir,
      this.conf.rootRef,
      (reals) => this.lockReals(reals),
    );
    for (const m of report.malformed) {
      this.notices.push(`A damaged commit journal was set aside: ${m}.`);
    }
    for (const f of report.skipped) {
      this.notices.push(
        `An interrupted commit was not finished for ${f}: the file had changed since.`,
      );
    }
    return report;
  }

  async recover(): Promise<RecoveryReport> {
    if (this.started === undefined) return await this.start();
    await this.started;
    return await this.settle();
  }

  private takeNotices(): string[] {
    const out = this.notices;
    this.notices = [];
    return out;
  }

  private lockSpec(target: Target): LockSpec {
    const parts = partsUnder(this.conf.rootRef, target.dir);
    const have = parts.length - target.missing.length;
    return {
      root: this.conf.rootRef,
      parts: parts.slice(0, have),
      rest: [...parts.slice(have), basename(target.real)].join("/"),
      display: target.display,
    };
  }

  private lockReals(reals: string[]): Promise<() => void> {
    const specs: LockSpec[] = [];
    for (const real of reals) {
      try {
        specs.push({
          root: this.conf.rootRef,
          parts: partsUnder(this.conf.rootRef, dirname(real)),
          rest: basename(real),
          display: real,
        });
      } catch {
        // Not under this root: recovery skips such entries anyway.
      }
    }
    return lockFiles(specs, this.lockTimeoutMs);
  }

  private async locked<T>(
    targets: Target[],
    run: () => Promise<T>,
  ): Promise<T> {
    await this.start();
    await this.settle();
    const release = await lockFiles(
      targets.map((t) => this.lockSpec(t)),
      this.lockTimeoutMs,
    );
    try {
      return await run();
    } finally {
      release();
    }
  }

  private streams(target: Target): boolean {
    return target.stat !== undefined && target.stat.size > this.streamThreshold;
  }

  /**
   * Whether a read takes the streamed path: past {@link READ_STREAM_BYTES}
   * the counting scan and the sparse line index beat decoding and splitting
   * the whole file (docs/reads.md), though patches load it whole up to the
   * streaming threshold.
   */
  private streamsRead(target: Target): boolean {
    return target.stat !== undefined &&
      target.stat.size > Math.min(this.streamThreshold, READ_STREAM_BYTES);
  }

  /** Saves a read record; a failure after a commit is a warning, never an error. */
  private async remember(
    session: string,
    real: string,
    mem: LineMemory,
    warnings?: string[],
  ): Promise<void> {
    try {
      await this.records.put(session, real, mem);
    } catch (error) {
      if (!warnings) throw error;
      warnings.push(
        `The edit was written, but this session's read record could not be saved (${
          error instanceof Error ? error.message : String(error)
        }): read the file again before the next edit.`,
      );
    }
  }

  async read(path: string, window: ReadOptions = {}): Promise<FileRead> {
    await this.start();
    if (window === null || typeof window !== "object") {
      throw new TypeError(
        "Cannot read: the window must be an object such as { offset, limit }.",
      );
    }
    const session = checkSession(window.session ?? this.session);
    const options = {
      offset: window.offset,
      limit: window.limit,
      maxLineChars: this.maxLineChars,
    };
    readWindow(Number.MAX_SAFE_INTEGER, options);
    const target = await this.conf.resolve(path);
    this.conf.check(target, "read");
    if (!target.exists) {
      throw new NotFoundError(
        `Cannot read "${target.display}": no such file in the workspace.`,
      );
    }
    let view: Omit<FileRead, "path">;
    let hashes: number[];
    if (this.streamsRead(target)) {
      ({ view, hashes } = await streamRead(
        target,
        options,
        this.engine,
        this.indexes,
      ));
    } else {
      const { bytes } = await readWhole(target);
      const { lines } = splitLines(fileText(target.display, bytes));
      const win = readWindow(lines.length, options);
      hashes = lines.slice(win.startLine - 1, win.endLine).map(lineHash32);
      view = {
        text: hashes.map((h, i) =>
          formatLine(
            win.startLine + i,
            lines[win.startLine - 1 + i],
            win.maxLineChars,
            foldHash(h),
          )
        ).join("\n"),
        totalLines: lines.length,
        startLine: win.startLine,
        endLine: win.endLine,
        nextOffset: win.nextOffset,
      };
    }
    const mem = (await this.records.get(session, target.real)) ??
      new LineMemory();
    mem.see(view.startLine, hashes);
    // A read sees the file's length too: lines past it are gone.
    mem.forgetFrom(view.totalLines + 1);
    mem.lineCount = view.totalLines;
    await this.remember(session, target.real, mem);
    return { path: target.display, ...view };
  }

  private async groupsOf(
    parsed: Patch,
  ): Promise<{ target: Target; ops: PatchOp[] }[]> {
    const groups: { target: Target; ops: PatchOp[] }[] = [];
    const byReal = new Map<string, { target: Target; ops: PatchOp[] }>();
    for (const file of parsed.files) {
      if (file.path === "") {
        throw new TypeError(
          'Cannot patch: the ops name no file. Start them with "@@ PATH" (text form) or send { files: [{ path, ops }] }.',
        );
      }
      const target = await this.conf.resolve(file.path);
      this.conf.check(target, "write");
      const group = byReal.get(target.real);
      if (group) group.ops.push(...file.ops);
      else {
        const g = { target, ops: [...file.ops] };
        byReal.set(target.real, g);
        groups.push(g);
      }
    }
    return groups;
  }

  async patch(
    input: Patch | string | object,
    options: PatchOptions = {},
  ): Promise<PatchResult> {
    await this.start();
    if (options === null || typeof options !== "object") {
      throw new TypeError(
        "Cannot patch: options must be an object such as { dryRun: true }.",
      );
    }
    const session = checkSession(options.session ?? this.session);
    const dryRun = options.dryRun === true;
    const rebase = options.rebase ?? this.rebaseDefault;
    const { parsePatch } = await loadEditing();
    const parsed = parsePatch(input);
    if (parsed.files.length === 0) {
      throw new TypeError(
        'Cannot patch: the patch names no files. Send { files: [{ path, ops }] } or the text form starting with "@@ PATH".',
      );
    }
    const groups = await this.groupsOf(parsed);
    // Judged against what the session knew when it sent the patch, not what
    // a concurrent patch of the same session recorded while this one waited.
    const known = new Map<string, LineMemory | undefined>();
    for (const g of groups) {
      known.set(
        g.target.real,
        (await this.records.get(session, g.target.real))?.clone(),
      );
    }
    const run = () => this.patchLocked(session, groups, known, dryRun, rebase);
    if (dryRun) return await run();
    return await this.locked(groups.map((g) => g.target), run);
  }

  private async patchLocked(
    session: string,
    groups: { target: Target; ops: PatchOp[] }[],
    known: Map<string, LineMemory | undefined>,
    dryRun: boolean,
    rebase: boolean,
  ): Promise<PatchResult> {
    const { summarizeEdit } = await loadEditing();
    const problems: Problem[] = [];
    const prepared: Prepared[] = [];
    const rebased: string[] = [];
    for (const group of groups) {
      // Judged as the file is now that its lock is held, not as it was before.
      const target = await this.conf.resolve(group.target.input);
      if (target.real !== group.target.real) {
        problems.push(changed(target.display));
        continue;
      }
      try {
        const p = await this.prepare(
          target,
          group.ops,
          known.get(target.real),
          problems,
          rebase ? rebased : null,
        );
        if (p) prepared.push(p);
      } catch (error) {
        if (!(error instanceof PatchRefusedError)) throw error;
        problems.push(...error.problems);
      }
    }
    if (problems.length > 0) {
      await this.rememberShown(session, groups, problems);
      throw new PatchRefusedError(problems);
    }
    const files: FileEdit[] = [];
    const shown: { start: number; hashes: number[] }[][] = [];
    for (const p of prepared) {
      const s = summarizeEdit({
        display: p.target.display,
        oldCount: p.oldCount,
        oldLine: p.oldLine,
        plan: p.plan,
        maxLineChars: this.maxLineChars ?? 2000,
        created: !p.target.exists,
      });
      files.push({
        path: p.target.display,
        added: s.added,
        removed: s.removed,
        created: !p.target.exists,
        anchors: s.anchors,
        diff: s.diff,
      });
      shown.push(s.shown);
    }
    const warnings = this.takeNotices();
    if (!dryRun) {
      const entries = prepared.filter((p) => !p.unchanged);
      if (entries.length > 0) {
        await commitFiles(this.stateDir, this.conf, entries);
      }
      for (let i = 0; i < prepared.length; i++) {
        const p = prepared[i];
        const mem = (await this.records.get(session, p.target.real)) ??
          new LineMemory();
        mem.remap(p.plan);
        for (const w of shown[i]) mem.see(w.start, w.hashes);
        mem.replaced = replacedLines(p.plan, p.oldLine);
        await this.remember(session, p.target.real, mem, warnings);
      }
    }
    const parts = files.map((f) =>
      [`Edited ${f.path} (+${f.added} -${f.removed})`, f.anchors, f.diff]
        .filter((s) => s !== "")
        .join("\n")
    );
    if (rebased.length > 0) parts.push(`Rebased: ${rebased.join("; ")}`);
    if (warnings.length > 0) {
      parts.push(...warnings.map((w) => `Warning: ${w}`));
    }
    if (dryRun) parts.unshift("Dry run: nothing was written.");
    return {
      dryRun,
      files,
      summary: parts.join("\n\n"),
      rebased,
      warnings,
    };
  }

  /** The lines a refusal shows count as read, so a resend built from them passes. */
  private async rememberShown(
    session: string,
    groups: { target: Target; ops: PatchOp[] }[],
    problems: Problem[],
  ): Promise<void> {
    const byDisplay = new Map(groups.map((g) => [g.target.display, g.target]));
    const seen = new Map<string, { start: number; hashes: number[] }[]>();
    for (const p of problems) {
      const shown = p.shown;
      const target = p.path ? byDisplay.get(p.path) : undefined;
      if (!shown || !target) continue;
      const list = seen.get(target.real) ?? [];
      list.push(...shown);
      seen.set(target.real, list);
    }
    for (const [real, windows] of seen) {
      const mem = (await this.records.get(session, real)) ?? new LineMemory();
      for (const w of windows) {
        mem.see(w.start, w.hashes);
        // The model has now been shown these lines as they are.
        for (let k = 0; k < w.hashes.length; k++) {
          mem.replaced?.delete(w.start + k);
        }
      }
      await this.remember(session, real, mem, []);
    }
  }

  private async prepare(
    target: Target,
    ops: PatchOp[],
    memory: LineMemory | undefined,
    problems: Problem[],
    rebased: string[] | null,
  ): Promise<Prepared | null> {
    const display = target.display;
    const { editContent, editIndexed } = await loadEditing();
    if (!target.exists) {
      const bad = ops.find((op) => op.op !== "append" && op.op !== "prepend");
      if (bad) {
        throw new NotFoundError(
          `Cannot patch "${display}": no such file in the workspace. To create it, send only append or prepend ops; to edit a file, check the path.`,
        );
      }
      const out = editContent("", ops, { path: display });
      const bytes = encoder.encode(out.content);
      return {
        target,
        plan: planOps(ops, 0),
        oldCount: 0,
        oldLine: () => undefined,
        write: (h) => writeAll(h, bytes),
        bytes,
        unchanged: false,
      };
    }
    refuseReadOnly(target);
    const unread = readFirst(memory, display);
    if (!memory) {
      problems.push(...unread);
      return null;
    }
    if (this.streams(target)) {
      const scanned = await scanForPatch(target, ops, memory, this.engine);
      const found = validateOps(ops, scanned.lookup, { memory, path: display });
      if (found.length === 0) {
        found.push(
          ...ambiguousAnchors(ops, memory.replaced, scanned.lookup, display),
        );
      }
      if (found.length > 0) {
        problems.push(...found);
        return null;
      }
      const plan = planOps(ops, scanned.lineCount);
      const streamed = { ...target, stat: scanned.id };
      return {
        target: streamed,
        plan,
        oldCount: scanned.lineCount,
        oldLine: scanned.oldLine,
        write: (h) => rewrite(h, streamed, scanned, plan),
        unchanged: plan.length === 0,
      };
    }
    const { bytes, id } = await readWhole(target);
    const text = fileText(display, bytes);
    // One line-offset pass over the old text serves the edit, the checks
    // below and the summary: the text is never split into lines here.
    const { outcome: out, old, plan } = editIndexed(text, ops, {
      memory,
      path: display,
      rebase: rebased !== null,
      replaced: memory.replaced,
    });
    if (rebased) rebased.push(...out.rebased.map((n) => `${display} ${n}`));
    const next = encoder.encode(out.content);
    const read = { ...target, stat: id };
    return {
      target: read,
      plan,
      oldCount: old.lineCount,
      oldLine: (n) => (n <= old.lineCount ? old.text(n) : undefined),
      write: (h) => writeAll(h, next),
      bytes: next,
      verify: (pin) => stillHolds(read, bytes, pin),
      unchanged: out.content === text,
    };
  }

  async create(
    path: string,
    content: string,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    const exists = (where: string) =>
      new EditRefusedError(
        `Cannot create "${where}": a file is already there, and it is never overwritten. Choose a new path, or edit the existing file instead.`,
        "EXISTS",
      );
    const info = await this.stat(path);
    if (info.exists) throw exists(info.path);
    try {
      return await this.writeFile(path, content, options, true);
    } catch (error) {
      if (
        error instanceof PatchRefusedError && error.code === "CHANGED" &&
        (await this.stat(path).catch(() => null))?.exists
      ) {
        throw exists(info.path);
      }
      throw error;
    }
  }

  async stat(path: string): Promise<PathInfo> {
    await this.start();
    const target = await this.conf.resolve(path);
    this.conf.check(target, "read");
    const id = target.exists ? statTarget(target) : null;
    return {
      path: target.display,
      exists: id !== null,
      size: id?.size ?? null,
    };
  }

  async readText(path: string, options: WriteOptions = {}): Promise<TextRead> {
    await this.start();
    const session = checkSession(options.session ?? this.session);
    const target = await this.conf.resolve(path);
    this.conf.check(target, "read");
    if (!target.exists) {
      throw new NotFoundError(
        `Cannot read "${target.display}": no such file in the workspace.`,
      );
    }
    const { bytes } = await readWhole(target);
    const text = fileText(target.display, bytes);
    const { lines } = splitLines(text);
    const mem = new LineMemory();
    mem.see(1, lines.map(lineHash32));
    mem.lineCount = lines.length;
    await this.remember(session, target.real, mem);
    return { path: target.display, text, totalLines: lines.length };
  }

  async forgetSession(session: string): Promise<void> {
    await this.records.forget(checkSession(session));
  }

  write(
    path: string,
    content: string,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    return this.writeFile(path, content, options, false);
  }

  private async writeFile(
    path: string,
    content: string,
    options: WriteOptions,
    createOnly: boolean,
  ): Promise<WriteResult> {
    await this.start();
    if (options === null || typeof options !== "object") {
      throw new TypeError("Cannot write: options must be an object.");
    }
    const session = checkSession(options.session ?? this.session);
    if (typeof content !== "string") {
      throw new TypeError(
        `Cannot write: content must be a string, got ${typeof content}.`,
      );
    }
    const wellFormed =
      (content as { isWellFormed?: () => boolean }).isWellFormed;
    if (wellFormed && !wellFormed.call(content)) {
      throw new TypeError(
        "Cannot write: the content holds an unpaired surrogate, which is not valid UTF-8 text.",
      );
    }
    const nul = content.indexOf("\0");
    if (nul !== -1) {
      throw new TypeError(
        `Cannot write: the content holds a NUL character at index ${nul}; a file with one is not text and could not be read back.`,
      );
    }
    const first = await this.conf.resolve(path);
    this.conf.check(first, "write");
    const bytes = encoder.encode(content);
    if (bytes.length > this.conf.maxFileBytes) {
      throw new TooLargeError(
        `Cannot write "${first.display}": the content is ${bytes.length} bytes, over the workspace limit of ${this.conf.maxFileBytes} bytes.`,
      );
    }
    const next = splitLines(content).lines;
    const known = first.exists
      ? (await this.records.get(session, first.real))?.clone()
      : undefined;
    return await this.locked([first], async () => {
      const target = await this.conf.resolve(path);
      const display = target.display;
      if (target.real !== first.real || (createOnly && target.exists)) {
        throw changedError(display);
      }
      let oldLines: string[] | null = [];
      let entryTarget = target;
      let verify: ((pin: Pin) => Promise<boolean>) | undefined;
      if (target.exists) {
        refuseReadOnly(target);
        const memory = known ?? await this.records.get(session, target.real);
        if (!memory) {
          throw new PatchRefusedError(
            judgeWholeWrite(display, memory, { stale: 0, total: 0 }),
          );
        }
        let stale = 0;
        let total: number;
        if (this.streams(target)) {
          oldLines = null;
          ({ stale, lines: total } = await firstStaleLine(
            target,
            memory.toJSON(),
            this.engine,
          ));
        } else {
          const { bytes: old, id } = await readWhole(target);
          oldLines = splitLines(fileText(display, old)).lines;
          total = oldLines.length;
          stale = staleIn(memory, oldLines);
          entryTarget = { ...target, stat: id };
          verify = (pin) => stillHolds(entryTarget, old, pin);
        }
        const refused = judgeWholeWrite(display, memory, { stale, total });
        if (refused.length > 0) throw new PatchRefusedError(refused);
      }
      let diff = "";
      const { summarizeEdit } = await loadEditing();
      if (oldLines) {
        diff = summarizeEdit({
          display,
          oldCount: oldLines.length,
          oldLine: (n) => oldLines![n - 1],
          plan: [{ at: 1, deleteCount: oldLines.length, lines: next }],
          maxLineChars: this.maxLineChars ?? 2000,
          created: !target.exists,
        }).diff;
      }
      let added = 0;
      let removed = 0;
      for (const line of diff.split("\n").slice(2)) {
        if (line.startsWith("+")) added++;
        else if (line.startsWith("-")) removed++;
      }
      if (!oldLines) {
        added = next.length;
        diff =
          `(diff not shown: the old file is over ${this.streamThreshold} bytes)`;
      }
      await commitFiles(this.stateDir, this.conf, [{
        target: entryTarget,
        write: (h) => writeAll(h, bytes),
        bytes,
        verify,
      }]);
      const warnings = this.takeNotices();
      const mem = new LineMemory();
      mem.see(1, next.map(lineHash32));
      mem.lineCount = next.length;
      await this.remember(session, target.real, mem, warnings);
      const head = target.exists
        ? `Wrote ${display} (+${added} -${removed})`
        : `Created ${display} (${next.length} ${
          next.length === 1 ? "line" : "lines"
        })`;
      const tail = warnings.map((w) => `\nWarning: ${w}`).join("");
      return {
        path: display,
        created: !target.exists,
        added,
        removed,
        totalLines: next.length,
        diff,
        summary: (diff ? `${head}\n${diff}` : head) + tail,
        warnings,
      };
    });
  }
}

/**
 * For each line a commit replaced one for one, where it now stands and the
 * full hash of the line it replaced.
 */
function replacedLines(
  plan: readonly PlannedEdit[],
  oldLine: (n: number) => string | undefined,
): Map<number, number> {
  const out = new Map<number, number>();
  let shift = 0;
  for (const e of [...plan].sort((a, b) => a.at - b.at)) {
    const pairs = Math.min(e.deleteCount, e.lines.length);
    for (let k = 0; k < pairs; k++) {
      const old = oldLine(e.at + k);
      if (old !== undefined) out.set(e.at + shift + k, lineHash32(old));
    }
    shift += e.lines.length - e.deleteCount;
  }
  return out;
}

async function stillHolds(
  target: Target,
  bytes: Uint8Array,
  pin: Pin,
): Promise<boolean> {
  try {
    return sameBytes((await readWhole(target, pin)).bytes, bytes);
  } catch {
    return false;
  }
}

function refuseReadOnly(target: Target): void {
  if (target.stat && (target.stat.mode & 0o222) === 0) {
    throw new PermissionError(
      `Cannot edit "${target.display}": the file is read-only (mode ${
        target.stat.mode.toString(8)
      }), and it is not replaced behind that. Make it writable first if it should change.`,
    );
  }
}

/**
 * Opens the files under one root folder for anchored reads and patches.
 * Returns at once; recovery of a commit that a crash cut short runs before
 * the first operation.
 *
 * @param root The workspace root folder (must exist).
 * @param options Session, state folder, limits.
 * @returns The workspace.
 * @throws {NotFoundError} When the root does not exist or is not a folder.
 * @throws {TypeError} When an option is malformed (such as an unsafe session name).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { openWorkspace } from "./workspace.ts";
 *
 * const dir = await mkdtemp(join(tmpdir(), "hashline-doc-"));
 * await writeFile(join(dir, "app.ts"), "const a = 1;\nconst b = 2;\n");
 * const ws = openWorkspace(dir, { stateDir: join(dir, ".hashline") });
 * const view = await ws.read("app.ts");
 * assert.equal(view.text, "1:8c|const a = 1;\n2:a1|const b = 2;");
 * const result = await ws.patch({
 *   files: [{ path: "app.ts", ops: [{ op: "replace", start: "2:a1", lines: ["const b = 3;"] }] }],
 * });
 * assert.match(result.summary, /^Edited app\.ts \(\+1 -1\)/);
 * assert.equal(await readFile(join(dir, "app.ts"), "utf8"), "const a = 1;\nconst b = 3;\n");
 * await rm(dir, { recursive: true });
 * ```
 */
export function openWorkspace(
  root: string,
  options: WorkspaceOptions = {},
): Workspace {
  if (options === null || typeof options !== "object") {
    throw new TypeError("Cannot open workspace: options must be an object.");
  }
  return new FileWorkspace(root, options);
}
