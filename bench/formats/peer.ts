/**
 * The peer beside hashline: `@oh-my-pi/hashline` 18, the format's
 * originator's own library. It runs under Bun only, so trials go to
 * `peer_driver.ts` in a Bun subprocess as JSON; this module writes each fix
 * in the peer's syntax and turns the driver's answers into outcomes.
 *
 * How a fix is written (line numbers of the read, 1-based, `S`..`E` the
 * lines replaced): a replacement is `PUT S.=E:` with one `+TEXT` row per new
 * line; a deletion is `CUT S.=E`; an insertion after line `N` is `PUT >N:`
 * (before the first line `PUT <1:`). The section header is the `[PATH#TAG]`
 * the read showed.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Applied } from "./checker.ts";
import type { Hunk } from "./fixes.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, "..", "..");

/** The package and version the peer rows name. */
export const PEER_NAME = "@oh-my-pi/hashline";

/**
 * The ops of a fix in the peer's syntax, without the section header.
 *
 * @param hunk The fix region (0-based in the file as read).
 * @returns Op lines, each ending in `\n`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { peerOps } from "./peer.ts";
 * assert.equal(peerOps({ start: 4, deleteCount: 1, lines: ["x"] }), "PUT 5.=5:\n+x\n");
 * assert.equal(peerOps({ start: 4, deleteCount: 2, lines: [] }), "CUT 5.=6\n");
 * assert.equal(peerOps({ start: 4, deleteCount: 0, lines: [""] }), "PUT >4:\n+\n");
 * ```
 */
export function peerOps(hunk: Hunk): string {
  const body = hunk.lines.map((l) => `+${l}\n`).join("");
  const { start, deleteCount } = hunk;
  if (deleteCount > 0) {
    const range = `${start + 1}.=${start + deleteCount}`;
    return hunk.lines.length === 0
      ? `CUT ${range}\n`
      : `PUT ${range}:\n${body}`;
  }
  return `PUT ${start > 0 ? `>${start}` : "<1"}:\n${body}`;
}

/**
 * The whole patch a model sends the peer: the read's header, then the ops.
 *
 * @param header `[PATH#TAG]` as the read showed it.
 * @param ops From {@link peerOps}.
 * @returns Patch text.
 */
export function peerPatch(header: string, ops: string): string {
  return `${header}\n${ops}`;
}

/**
 * The peer's edit as a minimal tool call (the same wrapping as the other
 * formats' `wrapped` payloads).
 *
 * @param patch From {@link peerPatch}.
 * @returns JSON text.
 */
export function peerCall(patch: string): string {
  return JSON.stringify({ name: "edit", arguments: { input: patch } });
}

/** One trial for the driver. */
export interface PeerTrial {
  /** File path (shown in the header). */
  path: string;
  /** The file as read. */
  read: string;
  /** The file on disk when the edit arrives. */
  disk: string;
  /** Ops from {@link peerOps}. */
  ops: string;
}

/** The driver's answer for one trial. */
export interface PeerResult {
  /** The read as the peer shows it (`[PATH#TAG]`, then `N:TEXT` lines). */
  read: string;
  /** The header of that read. */
  header: string;
  /** Whether the file changed. */
  written: boolean;
  /** The file after the edit, when written. */
  content?: string;
  /** The refusal's first line, when not written. */
  reason?: string;
}

/**
 * Parses and checks the driver's stdout.
 *
 * @param stdout JSON text.
 * @param expected How many results there must be.
 * @returns The version and results.
 * @throws {SyntaxError} When the output is not the driver's JSON.
 */
export function parsePeerOutput(
  stdout: string,
  expected: number,
): { version: string; results: PeerResult[] } {
  let v: unknown;
  try {
    v = JSON.parse(stdout);
  } catch {
    throw new SyntaxError(
      `The peer driver printed no JSON: ${stdout.slice(0, 200)}`,
    );
  }
  const o = v as { version?: unknown; results?: unknown };
  if (
    typeof o !== "object" || o === null || typeof o.version !== "string" ||
    !Array.isArray(o.results) || o.results.length !== expected
  ) {
    throw new SyntaxError(
      `The peer driver's output is not { version, results[${expected}] }.`,
    );
  }
  for (const r of o.results as PeerResult[]) {
    if (
      typeof r.read !== "string" || typeof r.written !== "boolean" ||
      (r.written && typeof r.content !== "string")
    ) {
      throw new SyntaxError(
        "A peer result lacks `read`, `written` or `content`.",
      );
    }
  }
  return { version: o.version, results: o.results as PeerResult[] };
}

/**
 * What the driver's answer means to the scorer.
 *
 * @param r One result.
 * @returns The applied outcome.
 */
export function peerApplied(r: PeerResult): Applied {
  return r.written
    ? { written: true, content: r.content! }
    : { written: false, reason: r.reason ?? "refused" };
}

/** Where Bun and the driver are. */
export interface PeerPaths {
  /** The Bun binary. */
  bun: string;
  /** The driver script. */
  driver: string;
}

/** The paths in this repository. */
export const PEER_PATHS: PeerPaths = {
  bun: join(REPO, "node_modules", ".bin", "bun"),
  driver: join(HERE, "peer_driver.ts"),
};

/**
 * Why the peer cannot run here, or `undefined` when it can.
 *
 * @param paths Bun and the driver.
 * @returns A sentence, or `undefined`.
 */
export function peerUnavailable(
  paths: PeerPaths = PEER_PATHS,
): string | undefined {
  if (!existsSync(paths.bun)) {
    return "Bun is not installed (node_modules/.bin/bun)";
  }
  if (
    !existsSync(join(REPO, "bench", "node_modules", "@oh-my-pi", "hashline"))
  ) {
    return `${PEER_NAME} is not installed`;
  }
  return undefined;
}

/**
 * Runs a batch of trials in one Bun subprocess.
 *
 * @param trials The trials.
 * @param paths Bun and the driver.
 * @returns The version and one result per trial, in order.
 */
export function runPeer(
  trials: readonly PeerTrial[],
  paths: PeerPaths = PEER_PATHS,
): Promise<{ version: string; results: PeerResult[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(paths.bun, [paths.driver], {
      cwd: REPO,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) {
        reject(
          new Error(
            `The peer driver exited with ${code}: ${err.trim().slice(0, 500)}`,
          ),
        );
        return;
      }
      try {
        resolve(parsePeerOutput(out, trials.length));
      } catch (e) {
        reject(e);
      }
    });
    child.stdin.end(JSON.stringify({ trials }));
  });
}

/**
 * Collects the trials asked for in one turn of the event loop and sends
 * them to the driver as one batch (one Bun process per batch).
 *
 * @param paths Bun and the driver.
 * @returns `run(trial)`, resolving to its result, and the version seen.
 */
export function createPeerBatcher(paths: PeerPaths = PEER_PATHS): {
  run(trial: PeerTrial): Promise<PeerResult>;
  version(): string | undefined;
} {
  let queue: {
    trial: PeerTrial;
    resolve: (r: PeerResult) => void;
    reject: (e: unknown) => void;
  }[] = [];
  let version: string | undefined;
  const flush = (): void => {
    const batch = queue;
    queue = [];
    runPeer(batch.map((b) => b.trial), paths).then((r) => {
      version = r.version;
      r.results.forEach((x, i) => batch[i].resolve(x));
    }, (e) => batch.forEach((b) => b.reject(e)));
  };
  return {
    run(trial) {
      return new Promise((resolve, reject) => {
        if (queue.length === 0) queueMicrotask(flush);
        queue.push({ trial, resolve, reject });
      });
    },
    version: () => version,
  };
}
