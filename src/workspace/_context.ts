/**
 * What every step of the workspace pipeline shares: the root, the state
 * folder, the session records, the options as checked at open, and the
 * notices a later result passes on.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { cwd } from "../_runtime/env.ts";
import { stateDirOf } from "../_runtime/state_dir.ts";
import { realpathSync, statSync } from "../_runtime/fs.ts";
import { checkSession } from "../_internal/session.ts";
import { lazy } from "../_internal/lazy.ts";
import { SyntaxGate } from "../check/gate.ts";
import { readWindow } from "../anchor/format.ts";
import { NotFoundError } from "../errors.ts";
import type { HistoryLog } from "../history/log.ts";
import { type Door, DOORS } from "../history/types.ts";
import type { CommitHooks } from "../commit/commit.ts";
import { Confinement, type Target } from "../fs/confine.ts";
import { LineIndexes } from "../stream/line_index.ts";
import type { RecoveryReport } from "../commit/recover.ts";
import { SessionRecords } from "../records/records.ts";
import type { WorkspaceOptions } from "./types.ts";

const GiB = 1024 ** 3;

// The history log loads with the first step that needs it (a write, a look
// at the history, a recovery that settles a commit): a read needs none.
const loadHistoryLog = lazy<typeof import("../history/log.ts")>(
  import.meta.url,
  "../history/log.ts",
);

/**
 * Size past which reads stream (see {@link Context.streamsRead}): on a
 * 1 MiB source file the two paths cost about the same, and past it the
 * streamed one pulls ahead (`bench/workspace_huge.ts --size=16` compares a
 * read of 16 MiB with reading it whole and splitting it).
 */
const READ_STREAM_BYTES = 1024 ** 2;

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

/** One open workspace: its root, state, records and checked options. */
export class Context {
  /** Real path of the root. */
  readonly root: string;
  /** The state folder (sessions, journal, line indexes). */
  readonly stateDir: string;
  /** The default session. */
  readonly session: string;
  /** Path checks against the root. */
  readonly conf: Confinement;
  /** Read records of every session. */
  readonly records: SessionRecords;
  /** Line indexes of huge files. */
  readonly indexes: LineIndexes;
  /** Display limit of one line, when set. */
  readonly maxLineChars?: number;
  /** Files larger than this are streamed for patches. */
  readonly streamThreshold: number;
  /** Byte-scanning engine for streamed files. */
  readonly engine?: "wasm" | "ts";
  /** Default of a patch's `rebase`. */
  readonly rebaseDefault: boolean;
  /** How long a writer waits for a lock. */
  readonly lockTimeoutMs: number;
  /** Test seams of the commit protocol. */
  readonly hooks: CommitHooks;
  /** Entries the edit history keeps, or null with history off. */
  private readonly historyLimit: number | null;
  /** Bytes of history state kept (the log and its blobs). */
  private readonly historyMaxBytes: number;
  private history?: Promise<HistoryLog | null>;
  /** The door changes are recorded as coming through. */
  readonly door: Door;
  /** Syntax checks of patches and writes (receipts in `<state>/checks/`). */
  readonly syntax: SyntaxGate;
  /** Recovery at first use. */
  started?: Promise<RecoveryReport>;
  /** Things the next result tells the caller. */
  notices: string[] = [];

  /**
   * @param root The workspace root folder (must exist).
   * @param options Session, state folder, limits.
   */
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
    const state = options.stateDir ?? stateDirOf(real);
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
    const maxSessionFiles = positive(
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
      maxSessionFiles,
    );
    this.indexes = new LineIndexes(join(this.stateDir, "lineindex"));
    this.hooks = options.hooks ?? {};
    const door = options.door ?? "library";
    if (!DOORS.includes(door)) {
      throw new TypeError(
        `Cannot open workspace: door must be one of ${DOORS.join(", ")}.`,
      );
    }
    this.door = door;
    // A CLI process ends after its edit: its checks' answers go to the state
    // folder, so the next process judges its edit by the region it changed.
    this.syntax = new SyntaxGate(
      options.check,
      this.stateDir,
      undefined,
      door === "cli",
      (message) => this.notices.push(message),
    );
    const limit = positive("historyLimit", options.historyLimit, 10_000);
    this.historyLimit = options.history === false || limit === 0
      ? null
      : Math.floor(limit);
    this.historyMaxBytes = Math.floor(
      positive("historyMaxBytes", options.historyMaxBytes, 256 * 1024 * 1024),
    );
  }

  /** The edit history, or null with history off (loaded on first use). */
  log(): Promise<HistoryLog | null> {
    const limit = this.historyLimit;
    return this.history ??= limit === null
      ? Promise.resolve(null)
      : loadHistoryLog().then(({ HistoryLog }) =>
        new HistoryLog(this.stateDir, {
          limit,
          maxBytes: this.historyMaxBytes,
        })
      );
  }

  /** The notices gathered since the last result, emptied. */
  takeNotices(): string[] {
    const out = this.notices;
    this.notices = [];
    return out;
  }

  /** Whether a patch or write streams this file instead of loading it. */
  streams(target: Target): boolean {
    return target.stat !== undefined && target.stat.size > this.streamThreshold;
  }

  /**
   * Whether a read takes the streamed path: past {@link READ_STREAM_BYTES}
   * the counting scan and the sparse line index beat decoding and splitting
   * the whole file (docs/reads.md), though patches load it whole up to the
   * streaming threshold.
   */
  streamsRead(target: Target): boolean {
    return target.stat !== undefined &&
      target.stat.size > Math.min(this.streamThreshold, READ_STREAM_BYTES);
  }
}
