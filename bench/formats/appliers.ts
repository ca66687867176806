/**
 * Every edit tool the drift table compares, each applying a task's fix with
 * its usual semantics: hashline through this project's own patch functions
 * and workspace, and the string- and diff-based tools of other harnesses.
 *
 * @module
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { applyPatch as applyUnifiedDiff } from "diff";
import {
  openWorkspace,
  type PatchOptions,
  type ReadOptions,
  type Workspace,
} from "../../mod.ts";
import { toLines } from "./_lines.ts";
import { applyCodexPatch } from "./_codex.ts";
import { dialectAppliers } from "./_dialect_rows.ts";
import { type HashlineApi, memoryOf } from "./_hashline_api.ts";
import {
  aiderReplace,
  firstMatchEdit,
  strReplaceUnique,
} from "./_text_edits.ts";
import type { Applied } from "./checker.ts";
import type { Fix, FormatName } from "./fixes.ts";
import type { Task } from "./tasks.ts";
import {
  createPeerBatcher,
  PEER_NAME,
  peerApplied,
  peerOps,
  type PeerPaths,
} from "./peer.ts";

/** One trial's input: the task, its fix, and the file on disk when the edit arrives. */
export interface TrialInput {
  /** The task (its `buggy` text is what was read). */
  task: Task;
  /** The fix, built from the read. */
  fix: Fix;
  /** The file now. */
  disk: string;
}

/** An edit tool with its semantics. */
export interface Applier {
  /** Stable id (table rows). */
  id: string;
  /** Row label. */
  label: string;
  /** The payload format it takes. */
  format: FormatName;
  /** One sentence on how it matches and writes. */
  semantics: string;
  /** Applies the fix to the file now. */
  apply(input: TrialInput): Promise<Applied>;
  /** Frees temp folders. */
  close(): Promise<void>;
}

const refusedBy = (e: unknown): Applied => ({
  written: false,
  reason: e instanceof Error ? e.message.split("\n")[0] : String(e),
});

function inMemory(
  id: string,
  label: string,
  format: FormatName,
  semantics: string,
  run: (input: TrialInput) => string | false,
): Applier {
  return {
    id,
    label,
    format,
    semantics,
    apply(input) {
      try {
        const out = run(input);
        return Promise.resolve(
          out === false
            ? { written: false, reason: "no match" }
            : { written: true, content: out },
        );
      } catch (e) {
        return Promise.resolve(refusedBy(e));
      }
    },
    close: () => Promise.resolve(),
  };
}

function hashlineInMemory(
  api: HashlineApi,
  record: boolean,
  rebase: boolean,
): Applier {
  const id = `hashline${record ? "_record" : "_fold"}${
    rebase ? "_rebase" : ""
  }`;
  const label = record
    ? `hashline in memory + 32-bit record${rebase ? ", rebase on" : ""}`
    : "hashline in memory, 2-hex fold only";
  return inMemory(
    id,
    label,
    "hashline_text",
    `\`${api.via}\` on the content now${
      record ? ", with the full hashes of the read" : ", no read record"
    }${rebase ? ", `rebase: true`" : ""}.`,
    ({ task, fix, disk }) =>
      api.apply(disk, fix.hashlineText, {
        ...(record ? { memory: memoryOf(toLines(task.buggy)) } : {}),
        ...(rebase ? { rebase: true } : {}),
      }),
  );
}

function hashlineWorkspace(rebase: boolean, root: Promise<string>): Applier {
  let ws: Workspace | undefined;
  let n = 0;
  return {
    id: `hashline_workspace${rebase ? "_rebase" : ""}`,
    label: `hashline workspace (read → drift on disk → patch)${
      rebase ? ", rebase on" : ""
    }`,
    format: "hashline_text",
    semantics:
      `\`openWorkspace\`: \`read\`, the file changed on disk, then \`patch\`${
        rebase ? " with `rebase: true`" : ""
      }.`,
    async apply({ task, fix, disk }) {
      const dir = await root;
      ws ??= openWorkspace(dir, {
        persistSessions: false,
        stateDir: join(dir, ".state"),
      });
      const rel = `t${n++}/${task.path}`;
      const file = join(dir, rel);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, task.buggy);
      await ws.read(rel, { limit: 100_000 });
      await writeFile(file, disk);
      const patch = fix.hashlineText.replace(
        `@@ ${task.path}\n`,
        `@@ ${rel}\n`,
      );
      const options = { rebase } as PatchOptions;
      let refused: Applied | undefined;
      try {
        await ws.patch(patch, options);
      } catch (e) {
        refused = refusedBy(e);
      }
      const after = await readFile(file, "utf8");
      await rm(join(dir, rel.split("/")[0]), { recursive: true, force: true });
      return refused && after === disk
        ? refused
        : { written: true, content: after };
    },
    async close() {
      await rm(await root, { recursive: true, force: true });
    },
  };
}

/**
 * The patch text with every anchor of an op line reduced to its bare line
 * number (`= 20:fd` → `= 20`), as a model writes it after a lean read.
 *
 * @param patch Hashline text form.
 * @returns The same patch with bare numbers.
 */
export function leanPatchText(patch: string): string {
  return patch.split("\n").map((l) =>
    /^[=+\-<>]/.test(l) && !l.startsWith("~")
      ? l.replace(/(\d+):[0-9a-f]{2}/g, "$1")
      : l
  ).join("\n");
}

/**
 * Hashline's workspace after a lean read (`anchors: "lean"`), the fix sent
 * with bare line numbers. Only offered when the build takes both (probed).
 */
function hashlineWorkspaceLean(root: Promise<string>): Applier {
  let ws: Workspace | undefined;
  let n = 0;
  return {
    id: "hashline_workspace_lean",
    label: "hashline workspace, lean read + bare-number ops",
    format: "hashline_text",
    semantics:
      '`openWorkspace`: `read` with `anchors: "lean"`, the file changed on disk, then `patch` naming lines by number alone.',
    async apply({ task, fix, disk }) {
      const dir = await root;
      ws ??= openWorkspace(dir, {
        persistSessions: false,
        stateDir: join(dir, ".state"),
      });
      const rel = `t${n++}/${task.path}`;
      const file = join(dir, rel);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, task.buggy);
      await ws.read(rel, { limit: 100_000, anchors: "lean" } as ReadOptions);
      await writeFile(file, disk);
      const patch = leanPatchText(
        fix.hashlineText.replace(`@@ ${task.path}\n`, `@@ ${rel}\n`),
      );
      let refused: Applied | undefined;
      try {
        await ws.patch(patch);
      } catch (e) {
        refused = refusedBy(e);
      }
      const after = await readFile(file, "utf8");
      await rm(join(dir, rel.split("/")[0]), { recursive: true, force: true });
      return refused && after === disk
        ? refused
        : { written: true, content: after };
    },
    async close() {
      await rm(await root, { recursive: true, force: true });
    },
  };
}

/** The peer's applier, with the reads it showed (per task id). */
export interface PeerApplier extends Applier {
  /** The peer's read of each task's file (`[PATH#TAG]` + `N:TEXT`). */
  reads: Map<string, { read: string; header: string }>;
  /** The version the driver reported. */
  version(): string | undefined;
}

/**
 * `@oh-my-pi/hashline` in a Bun subprocess: snapshot recorded at read time,
 * the fix in its `PUT`/`CUT` syntax, its replay and 3-way merge on drift.
 *
 * @param paths Bun and the driver.
 * @returns The applier.
 */
export function peerApplier(paths?: PeerPaths): PeerApplier {
  const batcher = createPeerBatcher(paths);
  const reads = new Map<string, { read: string; header: string }>();
  return {
    id: "peer",
    label: `${PEER_NAME} 18 (whole-file tag, replay + 3-way merge)`,
    format: "hashline_text",
    semantics:
      "`Patcher.apply` over an in-memory filesystem in Bun: a snapshot recorded at read time, `[PATH#TAG]` + `PUT S.=E:` / `PUT >N:` / `CUT S.=E`, replayed and merged when the file changed.",
    reads,
    version: batcher.version,
    async apply({ task, fix, disk }) {
      const r = await batcher.run({
        path: task.path,
        read: task.buggy,
        disk,
        ops: peerOps(fix.hunk),
      });
      if (!reads.has(task.id)) {
        reads.set(task.id, { read: r.read, header: r.header });
      }
      return peerApplied(r);
    },
    close: () => Promise.resolve(),
  };
}

/**
 * Whether GNU `patch` can be run here.
 *
 * @returns True when `patch --version` runs and names GNU patch.
 */
export function hasGnuPatch(): boolean {
  const r = spawnSync("patch", ["--version"], { encoding: "utf8" });
  return r.status === 0 && /GNU patch/.test(r.stdout);
}

/**
 * The installed GNU patch's version.
 *
 * @returns `2.7.6`, or `unknown`.
 */
export function gnuPatchVersion(): string {
  const r = spawnSync("patch", ["--version"], { encoding: "utf8" });
  return /GNU patch ([\d.]+)/.exec(r.stdout ?? "")?.[1] ?? "unknown";
}

function run(
  cmd: string,
  args: string[],
  cwd: string,
  input: string,
): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (b) => (output += b));
    child.stderr.on("data", (b) => (output += b));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, output }));
    child.stdin.end(input);
  });
}

function gnuPatch(root: Promise<string>): Applier {
  let n = 0;
  return {
    id: "gnu_patch",
    label: "unified diff, GNU patch (fuzz 2)",
    format: "unified_diff",
    semantics:
      "`patch -N -t -F 2` on the file (offsets and up to 2 lines of fuzzy context allowed).",
    async apply({ fix, disk }) {
      const dir = join(await root, `p${n++}`);
      await mkdir(dir, { recursive: true });
      const file = join(dir, "target");
      await writeFile(file, disk);
      const r = await run(
        "patch",
        [
          "-s",
          "-t",
          "-N",
          "-F",
          "2",
          "--no-backup-if-mismatch",
          "-r",
          "-",
          "target",
        ],
        dir,
        fix.unifiedDiff,
      );
      const after = await readFile(file, "utf8");
      await rm(dir, { recursive: true, force: true });
      if (r.status !== 0 && after === disk) {
        return { written: false, reason: r.output.trim().split("\n")[0] };
      }
      return { written: true, content: after };
    },
    async close() {
      await rm(await root, { recursive: true, force: true });
    },
  };
}

/**
 * Builds the appliers of the drift table.
 *
 * @param api This build's in-memory hashline call.
 * @param options `gnuPatch: false` leaves GNU patch out.
 * @returns The appliers, in table order.
 */
export function createAppliers(
  api: HashlineApi,
  options: { gnuPatch: boolean; peer?: PeerApplier; leanOps?: boolean },
): Applier[] {
  const temp = (): Promise<string> =>
    mkdtemp(join(tmpdir(), "hashline-formats-"));
  const list: Applier[] = [
    hashlineInMemory(api, false, false),
    hashlineInMemory(api, true, false),
    hashlineInMemory(api, true, true),
    hashlineWorkspace(false, temp()),
    hashlineWorkspace(true, temp()),
    inMemory(
      "str_replace",
      "str_replace, unique match",
      "str_replace",
      "exact old text; refused on 0 or several matches (Anthropic's text editor tool, Claude Code `Edit`).",
      ({ fix, disk }) => strReplaceUnique(disk, fix.oldString, fix.newString),
    ),
    inMemory(
      "first_match",
      "str_replace, first match (MCP filesystem `edit_file`)",
      "str_replace",
      "line ends normalised to LF; first exact occurrence, else first whitespace-trimmed line match.",
      ({ fix, disk }) => firstMatchEdit(disk, fix.oldString, fix.newString),
    ),
    inMemory(
      "aider",
      "Aider SEARCH/REPLACE",
      "aider_blocks",
      "universal newlines; first exact whole-line match, else first match ignoring leading whitespace.",
      ({ fix, disk }) =>
        aiderReplace(
          disk,
          fix.oldLines.map((l) => l + "\n").join(""),
          fix.newLines.map((l) => l + "\n").join(""),
        ),
    ),
    inMemory(
      "jsdiff",
      "unified diff, jsdiff `applyPatch` (fuzz 2)",
      "unified_diff",
      "`diff`'s `applyPatch` with `fuzzFactor: 2` (line ends converted automatically).",
      ({ fix, disk }) =>
        applyUnifiedDiff(disk, fix.unifiedDiff, { fuzzFactor: 2 }),
    ),
    inMemory(
      "codex",
      "Codex apply_patch",
      "apply_patch",
      "context + old lines sought exact → rstrip → trim, first match after the `@@` line.",
      ({ fix, disk }) => applyCodexPatch(disk, fix.codexPatch),
    ),
    inMemory(
      "whole_file",
      "whole-file rewrite",
      "whole_file",
      "the fixed file as the model wrote it from its read replaces the file.",
      ({ fix }) => fix.wholeFile,
    ),
  ];
  // After the hashline rows: the lean workspace, then the peer.
  const extra: Applier[] = [];
  if (options.leanOps) extra.push(hashlineWorkspaceLean(temp()));
  if (options.peer) extra.push(options.peer);
  list.splice(5, 0, ...extra);
  if (options.gnuPatch) list.splice(8 + extra.length, 0, gnuPatch(temp()));
  // The dialects through hashline, beside Codex's own algorithm.
  const codex = list.findIndex((a) => a.id === "codex");
  list.splice(codex + 1, 0, ...dialectAppliers(api));
  return list;
}
