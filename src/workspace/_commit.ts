/**
 * All-or-nothing commits of several files (DESIGN §3 "Writing").
 *
 * Each new content is staged in a temporary file beside its target, flushed
 * and given the old mode; the originals are hard-linked to backups; then the
 * temporaries are renamed over the targets. A journal in `<state>/journal`
 * names every temporary and backup before any of them exists, and its state
 * says which way an interrupted commit must go:
 *
 * - `staging`: no target was touched yet → remove temporaries and backups;
 * - `committing`: every temporary is complete and flushed → finish the renames;
 * - `rolling-back`: a check failed between renames → put the backups back.
 *
 * So a process killed at any point leaves every file all-old or all-new once
 * the next workspace opens and runs {@link recoverJournals}.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import {
  copyFile,
  type FileHandle,
  link,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
} from "../_runtime/fs.ts";
import { getEnv } from "../_runtime/env.ts";
import { killSelf, processAlive, processId } from "../_runtime/process.ts";
import { PatchRefusedError } from "../errors.ts";
import { type Confinement, sameIdentity, type Target } from "./_confine.ts";

/** One file to commit. */
export interface StageEntry {
  /** The checked target (its `stat` is the version the new content was built from). */
  target: Target;
  /** Writes the whole new content to the open temporary file. */
  write(handle: FileHandle): Promise<void>;
  /** Whether the file on disk still holds exactly what was validated (default: identity only). */
  verify?(): Promise<boolean>;
}

type JournalState = "staging" | "committing" | "rolling-back";

interface JournalEntry {
  target: string;
  temp: string;
  backup: string | null;
  existed: boolean;
}

interface Journal {
  version: 1;
  id: string;
  pid: number;
  state: JournalState;
  entries: JournalEntry[];
}

/**
 * Names of the steps of a commit of `files` files (existing marks the files
 * that already exist), in order: `HASHLINE_CRASH_AT=<step>` kills the process
 * right after that step (for crash tests).
 */
export function commitSteps(existing: boolean[]): string[] {
  const steps = ["journal-staging"];
  existing.forEach((_, i) => steps.push(`temp-${i}`));
  steps.push("staged", "checked");
  existing.forEach((e, i) => e && steps.push(`backup-${i}`));
  steps.push("journal-committing");
  existing.forEach((_, i) => steps.push(`rename-${i}`));
  steps.push("renamed", "cleaned", "done");
  return steps;
}

/**
 * Test hook: runs after each step of a commit with the commit's target paths
 * (tests change files mid-commit, or freeze commits before a kill, with it).
 */
export const commitHooks: {
  afterStep?: (
    name: string,
    targets: readonly string[],
  ) => void | Promise<void>;
} = {};

function errCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function sideName(target: string, id: string, kind: "new" | "old"): string {
  const base = basename(target).slice(0, 96);
  return join(dirname(target), `.${base}.${id}.hashline-${kind}.tmp`);
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (errCode(error) === "ENOENT") return false;
    throw error;
  }
}

async function syncDir(dir: string): Promise<void> {
  try {
    const h = await open(dir, "r");
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {
    // Some platforms cannot open or flush a folder; the rename is still atomic.
  }
}

async function writeDurable(path: string, data: string): Promise<void> {
  const h = await open(path, "w");
  try {
    await h.writeFile(data);
    await h.sync();
  } finally {
    await h.close();
  }
}

async function writeJournal(file: string, journal: Journal): Promise<void> {
  const tmp = `${file}.${journal.pid}.tmp`;
  await writeDurable(tmp, JSON.stringify(journal));
  await rename(tmp, file);
  await syncDir(dirname(file));
}

function changed(display: string): PatchRefusedError {
  return new PatchRefusedError([{
    code: "CHANGED",
    path: display,
    message:
      "the file changed on disk while the patch was being applied, so it was not overwritten. Read it again and resend the patch.",
  }]);
}

/** Installs a new file without ever replacing one that appeared meanwhile. */
async function installNew(temp: string, target: string): Promise<void> {
  try {
    await link(temp, target);
  } catch (error) {
    if (errCode(error) === "EEXIST") throw error;
    if (await exists(target)) {
      throw Object.assign(new Error("exists"), { code: "EEXIST" });
    }
    await rename(temp, target);
    return;
  }
  await rm(temp, { force: true });
}

async function sameInode(a: string, b: string): Promise<boolean> {
  try {
    const [x, y] = await Promise.all([stat(a), stat(b)]);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

async function removeSides(entries: JournalEntry[]): Promise<void> {
  for (const e of entries) {
    await rm(e.temp, { force: true });
    if (e.backup) await rm(e.backup, { force: true });
  }
}

async function rollForward(entries: JournalEntry[]): Promise<void> {
  for (const e of entries) {
    if (!(await exists(e.temp))) continue;
    if (e.existed) await rename(e.temp, e.target);
    else if (!(await exists(e.target))) await rename(e.temp, e.target);
    else await rm(e.temp, { force: true });
  }
  await removeSides(entries);
}

async function rollBack(entries: JournalEntry[]): Promise<void> {
  for (const e of entries) {
    const tempThere = await exists(e.temp);
    if (e.existed) {
      if (!tempThere && e.backup && (await exists(e.backup))) {
        await rename(e.backup, e.target);
      }
    } else if (
      (await exists(e.target)) &&
      (!tempThere || (await sameInode(e.temp, e.target)))
    ) {
      await rm(e.target, { force: true });
    }
  }
  await removeSides(entries);
}

async function settle(journal: Journal): Promise<void> {
  if (journal.state === "committing") await rollForward(journal.entries);
  else if (journal.state === "rolling-back") await rollBack(journal.entries);
  else await removeSides(journal.entries);
  for (const dir of new Set(journal.entries.map((e) => dirname(e.target)))) {
    await syncDir(dir);
  }
}

/** What {@link recoverJournals} did. */
export interface RecoveryReport {
  /** Commits finished from a complete journal. */
  rolledForward: number;
  /** Commits undone (cut short before every temporary file was ready). */
  rolledBack: number;
}

/**
 * Finishes or undoes every commit whose process died mid-way (commits of live
 * processes are left alone).
 *
 * @param stateDir The state folder holding `journal/`.
 */
export async function recoverJournals(
  stateDir: string,
): Promise<RecoveryReport> {
  const report: RecoveryReport = { rolledForward: 0, rolledBack: 0 };
  const dir = join(stateDir, "journal");
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return report;
  }
  const me = processId();
  for (const name of names.sort()) {
    const file = join(dir, name);
    if (name.endsWith(".tmp")) {
      const pid = Number(name.split(".").at(-2));
      if (pid !== me && !processAlive(pid)) await rm(file, { force: true });
      continue;
    }
    if (!name.endsWith(".json")) continue;
    let journal: Journal;
    try {
      journal = JSON.parse(new TextDecoder().decode(await readFile(file)));
    } catch {
      continue;
    }
    if (!Array.isArray(journal?.entries)) continue;
    if (journal.pid === me || processAlive(journal.pid)) continue;
    await settle(journal);
    if (journal.state === "committing") report.rolledForward++;
    else report.rolledBack++;
    await rm(file, { force: true });
  }
  return report;
}

/**
 * Writes every entry's new content to its target, all or none.
 *
 * @param stateDir The state folder (the journal goes in `journal/`).
 * @param confinement Re-checks each path at write time.
 * @param entries The files.
 * @throws {PatchRefusedError} `CHANGED` when a file changed since it was validated.
 * @throws {OutsideRootError} When a path no longer resolves inside the root.
 */
export async function commitFiles(
  stateDir: string,
  confinement: Confinement,
  entries: StageEntry[],
): Promise<void> {
  const id = randomId();
  const jdir = join(stateDir, "journal");
  await mkdir(jdir, { recursive: true });
  const jfile = join(jdir, `${Date.now()}-${id}.json`);
  const journal: Journal = {
    version: 1,
    id,
    pid: processId(),
    state: "staging",
    entries: entries.map(({ target }) => ({
      target: target.real,
      temp: sideName(target.real, id, "new"),
      backup: target.exists ? sideName(target.real, id, "old") : null,
      existed: target.exists,
    })),
  };
  const plan = journal.entries;
  const targets = plan.map((e) => e.target);
  const step = async (name: string): Promise<void> => {
    if (getEnv("HASHLINE_CRASH_AT") === name) killSelf();
    await commitHooks.afterStep?.(name, targets);
  };
  await writeJournal(jfile, journal);
  await step("journal-staging");
  try {
    for (let i = 0; i < entries.length; i++) {
      const { target } = entries[i];
      await confinement.makeFolders(target);
      const h = await open(plan[i].temp, "wx", target.exists ? 0o600 : 0o666);
      try {
        await entries[i].write(h);
        if (target.stat) await h.chmod(target.stat.mode);
        await h.sync();
      } finally {
        await h.close();
      }
      await step(`temp-${i}`);
    }
    await step("staged");
    for (const entry of entries) await recheck(confinement, entry);
    await step("checked");
    for (let i = 0; i < entries.length; i++) {
      const backup = plan[i].backup;
      if (!backup) continue;
      try {
        await link(plan[i].target, backup);
      } catch {
        await copyFile(plan[i].target, backup);
      }
      await step(`backup-${i}`);
    }
    journal.state = "committing";
    await writeJournal(jfile, journal);
    await step("journal-committing");
  } catch (error) {
    await removeSides(plan);
    await rm(jfile, { force: true });
    throw error;
  }
  try {
    for (let i = 0; i < entries.length; i++) {
      const { target } = entries[i];
      if (target.exists) {
        const now = await stat(plan[i].target).catch(() => null);
        if (!now || !sameIdentity(now, target.stat!)) {
          throw changed(target.display);
        }
        await rename(plan[i].temp, plan[i].target);
      } else {
        try {
          await installNew(plan[i].temp, plan[i].target);
        } catch (error) {
          if (errCode(error) === "EEXIST") throw changed(target.display);
          throw error;
        }
      }
      await step(`rename-${i}`);
    }
  } catch (error) {
    journal.state = "rolling-back";
    await writeJournal(jfile, journal);
    await step("journal-rolling-back");
    await rollBack(plan);
    await rm(jfile, { force: true });
    throw error;
  }
  await step("renamed");
  for (const dir of new Set(plan.map((e) => dirname(e.target)))) {
    await syncDir(dir);
  }
  for (const e of plan) if (e.backup) await rm(e.backup, { force: true });
  await step("cleaned");
  await rm(jfile, { force: true });
  await step("done");
}

async function recheck(
  confinement: Confinement,
  entry: StageEntry,
): Promise<void> {
  const { target } = entry;
  let now: Target;
  try {
    now = await confinement.resolve(target.input);
  } catch (error) {
    if (errCode(error) === "ENOENT") throw changed(target.display);
    throw error;
  }
  if (now.real !== target.real || now.exists !== target.exists) {
    throw changed(target.display);
  }
  if (target.exists && !sameIdentity(now.stat!, target.stat!)) {
    throw changed(target.display);
  }
  if (entry.verify && !(await entry.verify())) throw changed(target.display);
}
