/**
 * A racing swapper exchanges a folder inside the root with a symlink to a
 * folder outside it (and, separately, a file with a symlink to an outside
 * file) in a tight loop while reads, patches, whole-file writes and creates
 * run through the workspace. Nothing outside the root is created, changed or
 * read; every operation either lands inside the root or is refused with a
 * typed code.
 */
import assert from "node:assert/strict";
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Workspace } from "../../src/workspace/mod.ts";
import { makeTree, snapshot, type Tree } from "../workspace/_helpers.ts";
import { buildSwapper } from "./_swapper.ts";
import { anchorAt, finishesWithin, tally, typedCode } from "./_util.ts";

const binDir = await mkdtemp(join(tmpdir(), "hashline-swap-"));
const swapper = await buildSwapper(binDir);
const SKIP = typeof swapper === "string"
  ? `no path swapper here (${swapper})`
  : undefined;
// Bun lists skipped tests without their reason; say it where every runner shows it.
if (SKIP) console.warn(`Swap race tests skipped: ${SKIP}.`);
after(() => rm(binDir, { recursive: true, force: true }));

/** How long each swapper runs, and the most operations one lane starts. */
const FOLDER_SWAP_MS = 2500;
const FILE_SWAP_MS = 1500;
const LANES = 4;
const MAX_OPS_PER_LANE = 3000;
/** An operation still running after this long is blocked (a failure, never a wait). */
const BLOCKED_MS = 20_000;

const SECRET = "SECRET-outside-the-root";

/** Codes an operation may be refused with while its path is being swapped. */
const RACE_CODES = [
  "STALE_ANCHOR",
  "CHANGED",
  "OUTSIDE_ROOT",
  "NOT_FOUND",
  "NOT_READ",
  "NOT_A_FILE",
  "EXISTS",
];

interface Lane {
  done: () => boolean;
  ws: Workspace;
  outcomes: string[];
  secretSeen: string[];
  /** `stat` answers that showed a file that exists only outside the root. */
  statLeaks: string[];
  /** `EXISTS` refusals of creates at names nothing ever held. */
  falseExists: string[];
  failures: string[];
}

/** Runs `op`, recording its outcome; a refusal must be typed. */
async function attempt<T>(
  lane: Lane,
  what: string,
  op: () => Promise<T>,
): Promise<T | undefined> {
  const r = await finishesWithin(op(), BLOCKED_MS, what);
  if (r.status === "fulfilled") {
    lane.outcomes.push(`${what.split(" ")[0]} ok`);
    return r.value;
  }
  try {
    lane.outcomes.push(typedCode(r.reason, RACE_CODES, what));
  } catch (error) {
    lane.outcomes.push("untyped");
    lane.failures.push(String((error as Error).message));
  }
  return undefined;
}

function noSecret(lane: Lane, what: string, text: string | undefined): void {
  if (text !== undefined && text.includes("SECRET")) {
    lane.secretSeen.push(`${what} returned: ${text.slice(0, 200)}`);
  }
}

/** What one race left behind, judged by the tests below. */
interface Race {
  kind: string;
  exchanges: number;
  lanes: Lane[];
  outsideBefore: Map<string, string>;
  outsideAfter: Map<string, string>;
  baseBefore: string[];
  baseAfter: string[];
  /** Root-relative paths an acknowledged operation wrote last, with that content. */
  landed: Map<string, string>;
  /**
   * Whether the swapper left both paths as they were (null where a write may
   * legitimately have replaced the symlink: a rename over a file swapped in
   * after the last check replaces the symlink, never what it points to).
   */
  restored: boolean | null;
}

type LaneStep = (lane: Lane, i: number, n: number) => Promise<void>;

/**
 * Runs LANES lanes of `step` (each through its own workspace object) while
 * the swapper exchanges `a` and `b` for `ms`.
 */
async function race(
  t: Tree,
  a: string,
  b: string,
  ms: number,
  step: LaneStep,
  landed: Map<string, string>,
  checkRestored: boolean,
): Promise<Race> {
  const s = swapper as Exclude<typeof swapper, string>;
  await mkdir(t.state, { recursive: true });
  const outsideBefore = await snapshot(t.outside);
  const baseBefore = (await readdir(t.base)).sort();
  const aKind = (await lstat(a)).isSymbolicLink();
  let stop = false;
  const swapping = s.run(a, b, ms).finally(() => (stop = true));
  const lanes: Lane[] = Array.from({ length: LANES }, () => ({
    done: () => stop,
    ws: t.open(),
    outcomes: [],
    secretSeen: [],
    statLeaks: [],
    falseExists: [],
    failures: [],
  }));
  await Promise.all(lanes.map(async (lane, i) => {
    for (let n = 0; n < MAX_OPS_PER_LANE && !lane.done(); n++) {
      await step(lane, i, n);
    }
  }));
  const exchanges = await swapping;
  return {
    kind: s.kind,
    exchanges,
    lanes,
    outsideBefore,
    outsideAfter: await snapshot(t.outside),
    baseBefore,
    baseAfter: (await readdir(t.base)).sort(),
    landed,
    restored: checkRestored
      ? (await lstat(a)).isSymbolicLink() === aKind &&
        (await lstat(b)).isSymbolicLink() !== aKind
      : null,
  };
}

/** The checks every race must pass, one test each. */
function judge(get: () => { t: Tree; race: Race }, skip?: string): void {
  it("nothing outside the root was created or changed", { skip }, () => {
    const { race } = get();
    assert.ok(
      race.restored !== false,
      "the swapper did not leave the paths as they were",
    );
    assert.deepEqual(race.outsideAfter, race.outsideBefore);
    assert.deepEqual(race.baseAfter, race.baseBefore);
  });
  it("no operation returned anything of the outside", { skip }, () => {
    const { race } = get();
    assert.deepEqual(race.lanes.flatMap((l) => l.secretSeen), []);
  });
  it("every acknowledged write is inside the root with its content", {
    skip,
  }, async () => {
    const { t, race } = get();
    for (const [name, content] of race.landed) {
      assert.equal(await readFile(join(t.root, name), "utf8"), content, name);
    }
    const outcomes = race.lanes.flatMap((l) => l.outcomes);
    assert.ok(
      outcomes.some((o) => o.endsWith(" ok")) &&
        outcomes.some((o) => !o.endsWith(" ok")),
      `the race never bit: ${JSON.stringify(tally(outcomes))}`,
    );
    console.log(
      `${race.kind} swapper: ${race.exchanges} exchanges, ${outcomes.length} operations`,
      tally(outcomes),
    );
  });
}

/** A check that some refusal was untyped, run as its own test. */
function assertTyped(race: Race): void {
  const failures = race.lanes.flatMap((l) => l.failures);
  assert.deepEqual(
    distinct(failures),
    [],
    `${failures.length} untyped failures`,
  );
}

describe("a folder swapped for a symlink to outside the root", () => {
  let t: Tree;
  let result: Race;
  before(async () => {
    t = await makeTree();
    if (SKIP) return;
    await mkdir(join(t.root, "sub"));
    await mkdir(join(t.outside, "dir"));
    for (let i = 0; i < LANES; i++) {
      await writeFile(join(t.root, "sub", `edit-${i}.txt`), "inside 0\nkeep\n");
      await writeFile(join(t.root, "sub", `whole-${i}.txt`), "inside whole\n");
      await writeFile(join(t.outside, "dir", `edit-${i}.txt`), `${SECRET}\n`);
      await writeFile(join(t.outside, "dir", `whole-${i}.txt`), `${SECRET}\n`);
    }
    await writeFile(join(t.root, "sub", "a.txt"), "inside a\n");
    await writeFile(join(t.outside, "dir", "a.txt"), `${SECRET} a\n`);
    await writeFile(join(t.outside, "dir", "secret.txt"), `${SECRET}\n`);
    await symlink(join(t.outside, "dir"), join(t.root, "lnk"));
    const landed = new Map<string, string>();
    result = await race(
      t,
      join(t.root, "sub"),
      join(t.root, "lnk"),
      FOLDER_SWAP_MS,
      async (lane, i, n) => {
        const { ws } = lane;
        const name = `sub/lane${i}-${n}.txt`;
        switch (n % 7) {
          case 0: {
            const v = await attempt(
              lane,
              "read sub/a.txt",
              () => ws.read("sub/a.txt"),
            );
            noSecret(lane, "read sub/a.txt", v?.text);
            return;
          }
          case 1: {
            // The file exists only in the outside folder.
            const v = await attempt(
              lane,
              "readText sub/secret.txt",
              () => ws.readText("sub/secret.txt"),
            );
            noSecret(lane, "readText sub/secret.txt", v?.text);
            return;
          }
          case 2: {
            const file = `sub/edit-${i}.txt`;
            const v = await attempt(lane, `read ${file}`, () => ws.read(file));
            noSecret(lane, `read ${file}`, v?.text);
            if (!v) return;
            const line = `lane ${i} edit ${n}`;
            const ok = await attempt(lane, `patch ${file}`, () =>
              ws.patch({
                files: [{
                  path: file,
                  ops: [{
                    op: "replace",
                    start: anchorAt(v.text, 1),
                    lines: [line],
                  }],
                }],
              }));
            if (ok) landed.set(file, `${line}\nkeep\n`);
            return;
          }
          case 3: {
            const line = `created by patch ${name}`;
            const ok = await attempt(
              lane,
              `patch-create ${name}`,
              () =>
                ws.patch({
                  files: [{
                    path: name,
                    ops: [{ op: "append", lines: [line] }],
                  }],
                }),
            );
            if (ok) landed.set(name, `${line}\n`);
            return;
          }
          case 4: {
            const file = `sub/whole-${i}.txt`;
            const v = await attempt(
              lane,
              `readText ${file}`,
              () => ws.readText(file),
            );
            noSecret(lane, `readText ${file}`, v?.text);
            if (!v) return;
            const content = `whole ${i} ${n}\n`;
            const ok = await attempt(
              lane,
              `write ${file}`,
              () => ws.write(file, content),
            );
            if (ok) landed.set(file, content);
            return;
          }
          case 5: {
            const content = `created ${name}\n`;
            const ok = await attempt(
              lane,
              `create ${name}`,
              () => ws.create(name, content),
            );
            if (ok) landed.set(name, content);
            else if (lane.outcomes.at(-1) === "EXISTS") {
              lane.falseExists.push(name);
            }
            return;
          }
          default: {
            // Not even the outside file's existence or size may show.
            const v = await attempt(
              lane,
              "stat sub/secret.txt",
              () => ws.stat("sub/secret.txt"),
            );
            if (v?.exists) {
              lane.statLeaks.push(`stat sub/secret.txt: ${JSON.stringify(v)}`);
            }
          }
        }
      },
      landed,
      true,
    );
  }, { timeout: 60_000 });
  after(() => t.cleanup());

  judge(() => ({ t, race: result }), SKIP);
  // Known bug: Confinement.resolve lstats each part by its full path, so
  // with the folder swapped between two lstat calls it describes a file
  // reached through the symlink, and stat() reports it without opening it.
  it("stat never reports a file that exists only outside the root", {
    skip: SKIP,
  }, () => {
    assert.deepEqual(result.lanes.flatMap((l) => l.statLeaks), []);
  });
  // Known bug: create() turns every CHANGED refusal into EXISTS ("a file
  // is already there"), also when the folder was swapped and nothing is.
  it("create says EXISTS only where a file is", {
    skip: SKIP,
  }, () => {
    assert.deepEqual(result.lanes.flatMap((l) => l.falseExists), []);
  });
  // Known bug: a folder swapped between path resolution and locking or
  // stat makes a raw errno error (ENOTDIR from pinFolder in lock/lock.ts
  // acquireFile, ENOENT from stat in fs/confine.ts resolve) escape instead of
  // a typed CHANGED refusal (an HTTP caller gets 500 INTERNAL).
  it("every refusal is typed", {
    skip: SKIP,
  }, () => assertTyped(result));
});

describe("a file swapped for a symlink to an outside file", () => {
  let t: Tree;
  let result: Race;
  let last: string | undefined;
  before(async () => {
    t = await makeTree();
    if (SKIP) return;
    await writeFile(join(t.root, "f.txt"), "inside f\nsecond\n");
    await writeFile(join(t.outside, "secret.txt"), `${SECRET}\nsecond\n`);
    await symlink(join(t.outside, "secret.txt"), join(t.root, "f-link"));
    const landed = new Map<string, string>();
    result = await race(
      t,
      join(t.root, "f.txt"),
      join(t.root, "f-link"),
      FILE_SWAP_MS,
      async (lane, i, n) => {
        const { ws } = lane;
        switch (n % 4) {
          case 0: {
            const v = await attempt(lane, "read f.txt", () => ws.read("f.txt"));
            noSecret(lane, "read f.txt", v?.text);
            return;
          }
          case 1: {
            const v = await attempt(
              lane,
              "readText f.txt",
              () => ws.readText("f.txt"),
            );
            noSecret(lane, "readText f.txt", v?.text);
            return;
          }
          case 2: {
            const v = await attempt(lane, "read f.txt", () => ws.read("f.txt"));
            noSecret(lane, "read f.txt", v?.text);
            if (!v) return;
            // Line 2 reads the same inside and outside: only the file's
            // identity tells them apart.
            const line = `second ${i}.${n}`;
            const ok = await attempt(lane, "patch f.txt", () =>
              ws.patch({
                files: [{
                  path: "f.txt",
                  ops: [{
                    op: "replace",
                    start: anchorAt(v.text, 2),
                    lines: [line],
                  }],
                }],
              }));
            if (ok) last = `inside f\n${line}\n`;
            break;
          }
          default: {
            const v = await attempt(
              lane,
              "readText f.txt",
              () => ws.readText("f.txt"),
            );
            noSecret(lane, "readText f.txt", v?.text);
            if (!v) return;
            const content = `inside f\nwhole ${i}.${n}\n`;
            const ok = await attempt(
              lane,
              "write f.txt",
              () => ws.write("f.txt", content),
            );
            if (ok) last = content;
          }
        }
      },
      landed,
      false,
    );
  }, { timeout: 60_000 });
  after(() => t.cleanup());

  judge(() => ({ t, race: result }), SKIP);
  it("the last acknowledged edit is at f.txt or at the name swapped with it", {
    skip: SKIP,
  }, async (ctx) => {
    if (last === undefined) {
      ctx.skip("no edit was acknowledged during the race");
      return;
    }
    const at = await Promise.all(
      ["f.txt", "f-link"].map((n) =>
        readFile(join(t.root, n), "utf8").catch(() => null)
      ),
    );
    assert.ok(at.includes(last), `${JSON.stringify(at)} lacks ${last}`);
  });
  it("every refusal is typed", { skip: SKIP }, () => assertTyped(result));
});

/** One example of each kind of failure (same message head and throwing frame). */
function distinct(failures: string[]): string[] {
  const seen = new Map<string, string>();
  for (const f of failures) {
    const frames = f.split("\n").filter((l) => /at .*src\//.test(l))
      .map((l) => l.replace(/:\d+:\d+\)?$/, ""));
    const key = f.replace(/^[^:]*: /, "").split("\n")[0]
      .replace(/'[^']*'/g, "PATH").replace(/\d+/g, "N") + (frames[0] ?? "");
    if (!seen.has(key)) seen.set(key, f.split("\n").slice(0, 8).join("\n"));
  }
  return [...seen.values()];
}
