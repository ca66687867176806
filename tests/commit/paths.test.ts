/**
 * The suite every commit path passes (src/commit/contract.ts), run through
 * `commitFiles` with the input that picks each path: the new content lands,
 * the old mode is kept, a file changed before the rename is refused with
 * every byte left as it was, the hooks see each step in order, and no
 * temporary or journal is left behind.
 */
import assert from "node:assert/strict";
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, it } from "node:test";
import { PatchRefusedError } from "../../src/errors.ts";
import { Confinement } from "../../src/fs/confine.ts";
import {
  commitFiles,
  type CommitRecord,
  commitsFlushed,
  commitSteps,
  type StageEntry,
} from "../../src/commit/commit.ts";

const encoder = new TextEncoder();
const TEMP = /\.hashline-(one|new|old)\.tmp$/;

/** The file names each case commits, with their modes before. */
const FILES: Record<string, number> = { "a.txt": 0o640, "b.txt": 0o600 };

/** A history record that notes what the commit asked of it. */
interface FakeRecord {
  record: CommitRecord;
  calls: string[];
}

/** A record a commit can append as its journal (`logged.ts`). */
function loggedRecord(): FakeRecord {
  const calls: string[] = [];
  const record: CommitRecord = {
    take: () => {
      calls.push("take");
      return Promise.resolve(undefined);
    },
    append: () => {
      calls.push("append");
      return Promise.resolve();
    },
    appendPending: (commit) => {
      calls.push(`pending ${basename(commit.target)}`);
      record.id = "h_1";
      return Promise.resolve({
        flushed: Promise.resolve(),
        cancel: () => {
          calls.push("cancel");
          return Promise.resolve();
        },
      });
    },
  };
  return { record, calls };
}

/** A record a journal carries and the commit appends after its renames. */
function journaledRecord(): FakeRecord {
  const calls: string[] = [];
  const record: CommitRecord = {
    take: () => {
      calls.push("take");
      record.id = "h_1";
      record.record = { id: "h_1" };
      return Promise.resolve(record.record);
    },
    append: (r) => {
      assert.deepEqual(r, { id: "h_1" });
      calls.push("append");
      return Promise.resolve();
    },
  };
  return { record, calls };
}

/** One commit path and the input that picks it. */
interface PathCase {
  name: string;
  files: string[];
  history?: () => FakeRecord;
  /** The steps the hooks see, in order. */
  steps: string[];
  /** The kind of its temporaries' names. */
  temps: "one" | "new";
  /** Whether it keeps a journal in `<state>/journal` while it renames. */
  journal: boolean;
  /** What it asks of the history record when it lands, and when refused. */
  landed: string[];
  refused: string[];
}

const PATHS: PathCase[] = [
  {
    name: "one file",
    files: ["a.txt"],
    steps: commitSteps([true]),
    temps: "one",
    journal: false,
    landed: [],
    refused: [],
  },
  {
    name: "logged",
    files: ["a.txt"],
    history: loggedRecord,
    steps: commitSteps([true], true),
    temps: "one",
    journal: false,
    landed: ["pending a.txt"],
    refused: ["pending a.txt", "cancel"],
  },
  {
    name: "journaled",
    files: ["a.txt"],
    history: journaledRecord,
    steps: [
      "temp-0",
      "staged",
      "checked",
      "journal-committing",
      "backup-0",
      "rename-0",
      "history",
      "cleaned",
      "done",
    ],
    temps: "one",
    journal: true,
    landed: ["take", "append"],
    refused: ["take"],
  },
  {
    name: "many",
    files: ["a.txt", "b.txt"],
    history: journaledRecord,
    steps: commitSteps([true, true], true),
    temps: "new",
    journal: true,
    landed: ["take", "append"],
    refused: ["take"],
  },
  {
    name: "many without history",
    files: ["a.txt", "b.txt"],
    steps: commitSteps([true, true]),
    temps: "new",
    journal: true,
    landed: [],
    refused: [],
  },
];

const before = (name: string) => `${name} as it was\nline 2\n`;
const after = (name: string) => `${name} as the commit writes it\n`;

/** A root holding every file of {@link FILES} and an empty state folder. */
async function makeRoot(): Promise<{
  root: string;
  state: string;
  cleanup: () => Promise<void>;
}> {
  const base = await realpath(await mkdtemp(join(tmpdir(), "hashline-cp-")));
  const root = join(base, "root");
  const state = join(base, "state");
  await mkdir(root);
  await mkdir(state);
  for (const [name, mode] of Object.entries(FILES)) {
    await writeFile(join(root, name), before(name));
    await chmod(join(root, name), mode);
  }
  return {
    root,
    state,
    cleanup: async () => {
      await commitsFlushed();
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** The entries of `files`, held in memory or written through a handle. */
async function entriesOf(
  conf: Confinement,
  files: string[],
  streamed: boolean,
): Promise<StageEntry[]> {
  const out: StageEntry[] = [];
  for (const name of files) {
    const target = await conf.resolve(name);
    const bytes = encoder.encode(after(name));
    out.push(
      streamed
        ? {
          target,
          write: async (h) => {
            await h.write(bytes.subarray(0, 4));
            await h.write(bytes.subarray(4));
          },
        }
        : { target, bytes, old: encoder.encode(before(name)) },
    );
  }
  return out;
}

/** Names in the root that are not files of {@link FILES}. */
async function leftovers(root: string): Promise<string[]> {
  return (await readdir(root)).filter((n) => !(n in FILES));
}

async function journals(state: string): Promise<string[]> {
  return await readdir(join(state, "journal")).catch(() => []);
}

for (const path of PATHS) {
  describe(`commit path: ${path.name}`, () => {
    for (const streamed of [false, true]) {
      const form = streamed ? "written through a handle" : "held in memory";
      it(
        `lands new content ${form}, keeps the mode, and leaves nothing behind`,
        {
          timeout: 30_000,
        },
        async () => {
          const { root, state, cleanup } = await makeRoot();
          try {
            const conf = new Confinement(root, root, state, 2 ** 32);
            const history = path.history?.();
            await commitFiles(
              state,
              conf,
              await entriesOf(conf, path.files, streamed),
              {},
              history?.record,
            );
            await commitsFlushed();
            for (const [name, mode] of Object.entries(FILES)) {
              const written = path.files.includes(name);
              assert.equal(
                await readFile(join(root, name), "utf8"),
                written ? after(name) : before(name),
              );
              assert.equal((await stat(join(root, name))).mode & 0o777, mode);
            }
            assert.deepEqual(history?.calls ?? [], path.landed);
            assert.deepEqual(await leftovers(root), []);
            assert.deepEqual(await journals(state), []);
          } finally {
            await cleanup();
          }
        },
      );
    }

    it("runs the hooks at each step, with its own side files", {
      timeout: 30_000,
    }, async () => {
      const { root, state, cleanup } = await makeRoot();
      try {
        const conf = new Confinement(root, root, state, 2 ** 32);
        const seen: string[] = [];
        const sides: Record<string, string[]> = {};
        const journaled: Record<string, number> = {};
        const targets = path.files.map((f) => join(root, f));
        await commitFiles(
          state,
          conf,
          await entriesOf(conf, path.files, false),
          {
            afterStep: async (step, stepTargets) => {
              assert.deepEqual(stepTargets, targets);
              seen.push(step);
              sides[step] = (await leftovers(root)).sort();
              journaled[step] = (await journals(state)).length;
            },
          },
          path.history?.().record,
        );
        assert.deepEqual(seen, path.steps);
        const staged = sides["staged"];
        assert.equal(staged.length, path.files.length);
        for (const name of staged) {
          assert.equal(TEMP.exec(name)?.[1], path.temps, name);
        }
        assert.equal(journaled["rename-0"], path.journal ? 1 : 0);
        assert.deepEqual(sides["done"], []);
      } finally {
        await cleanup();
      }
    });

    for (const at of ["staged", "checked"]) {
      it(
        `refuses a file changed after the step "${at}", every byte as it was`,
        {
          timeout: 30_000,
        },
        async () => {
          const { root, state, cleanup } = await makeRoot();
          try {
            const conf = new Confinement(root, root, state, 2 ** 32);
            const history = path.history?.();
            const first = join(root, path.files[0]);
            const external = "written by another program meanwhile\n";
            await assert.rejects(
              commitFiles(
                state,
                conf,
                await entriesOf(conf, path.files, false),
                {
                  afterStep: async (step) => {
                    if (step === at) await writeFile(first, external);
                  },
                },
                history?.record,
              ),
              (e: unknown) => {
                assert.ok(e instanceof PatchRefusedError);
                assert.equal(e.code, "CHANGED");
                return true;
              },
            );
            await commitsFlushed();
            for (const [name, mode] of Object.entries(FILES)) {
              assert.equal(
                await readFile(join(root, name), "utf8"),
                name === path.files[0] ? external : before(name),
              );
              assert.equal((await stat(join(root, name))).mode & 0o777, mode);
            }
            assert.deepEqual(history?.calls ?? [], path.refused);
            assert.deepEqual(await leftovers(root), []);
            assert.deepEqual(await journals(state), []);
          } finally {
            await cleanup();
          }
        },
      );
    }
  });
}
