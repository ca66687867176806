/**
 * Forged and damaged commit journals: one planted inside the root (not the
 * workspace's state folder), and ones in the real state folder whose entries
 * lead outside the root, whose root is another folder, or whose side-file
 * names are not the toolkit's own, all left by a dead process. Recovery and
 * the next patch touch nothing outside the root, never put a planted file in
 * place of a root file, report a malformed journal by name and set it aside,
 * and never fail with an unrelated TypeError.
 */
import assert from "node:assert/strict";
import {
  mkdir,
  readdir,
  readFile,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { RecoveryReport } from "../../src/workspace/mod.ts";
import { makeTree, snapshot, type Tree } from "../workspace/_helpers.ts";
import { anchorAt, deadPid } from "./_util.ts";

const ID = "0123456789abcdef";
const A = "original a\nsecond a\n";
const B = "original b\n";
const VICTIM = "victim outside\n";
const PLANTED = "PLANTED by a forged journal\n";

/** Where a case puts its journal, and what recovery must say about it. */
interface Case {
  name: string;
  /** Builds the journal text (and plants side files) in tree `t`, for dead process `pid`. */
  build(t: Tree, pid: number): Promise<string>;
  /** Journal folder: the workspace's own (default) or one inside the root. */
  inRoot?: boolean;
  /** The journal must be reported malformed and set aside (else it may be left alone). */
  malformed?: boolean;
}

async function identity(path: string) {
  const st = await stat(path);
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
}

function side(base: string, pid: number, kind: "new" | "old"): string {
  return `.${base}.${pid}-${ID}.hashline-${kind}.tmp`;
}

/** A well-formed version-2 journal. */
function journal(
  pid: number,
  root: string,
  state: string,
  entries: unknown[],
): string {
  return JSON.stringify({ version: 2, id: ID, pid, root, state, entries });
}

/** Plants a planted temp file named like the toolkit's own beside `target`, and returns the entry naming it. */
async function forward(
  target: string,
  pid: number,
  temp = join(target, "..", side(target.split("/").at(-1)!, pid, "new")),
  name = side(target.split("/").at(-1)!, pid, "new"),
) {
  await writeFile(temp, PLANTED);
  return {
    target,
    temp: name,
    backup: null,
    existed: true,
    old: await identity(target),
    newIno: (await stat(temp)).ino,
  };
}

const CASES: Case[] = [
  {
    name: "a journal inside the root, not in the state folder",
    inRoot: true,
    build: async (t, pid) =>
      journal(pid, t.root, "committing", [
        await forward(join(t.root, "a.txt"), pid),
      ]),
  },
  {
    name: "an entry whose target lies outside the root",
    malformed: true,
    build: async (t, pid) =>
      journal(pid, t.root, "committing", [
        await forward(join(t.outside, "victim.txt"), pid),
      ]),
  },
  {
    name: "a journal whose root is another folder",
    build: async (t, pid) =>
      journal(pid, t.outside, "committing", [
        await forward(join(t.outside, "victim.txt"), pid),
      ]),
  },
  {
    name: "an entry reached through a symlinked folder that leads outside",
    build: async (t, pid) =>
      journal(pid, t.root, "committing", [
        await forward(join(t.root, "lnk", "victim.txt"), pid),
      ]),
  },
  {
    name: "an entry whose target climbs out with ..",
    build: async (t, pid) =>
      journal(pid, t.root, "committing", [
        await forward(join(t.root, "..", "outside", "victim.txt"), pid),
      ]),
  },
  {
    name: "a temp name that is not of the toolkit's form",
    malformed: true,
    build: async (t, pid) => {
      await writeFile(join(t.root, "evil.txt"), PLANTED);
      return journal(pid, t.root, "committing", [{
        ...(await forward(join(t.root, "a.txt"), pid)),
        temp: "evil.txt",
      }]);
    },
  },
  {
    name: "a temp name of another process",
    malformed: true,
    build: async (t, pid) =>
      journal(pid, t.root, "committing", [
        await forward(
          join(t.root, "a.txt"),
          pid,
          join(t.root, side("a.txt", pid + 1, "new")),
          side("a.txt", pid + 1, "new"),
        ),
      ]),
  },
  {
    name: "a temp name that climbs out of the folder (committing)",
    malformed: true,
    build: async (t, pid) => {
      const name = `v.${pid}-${ID}.hashline-new.tmp`;
      return journal(pid, t.root, "committing", [
        await forward(
          join(t.root, "a.txt"),
          pid,
          join(t.outside, name),
          `./../outside/${name}`,
        ),
      ]);
    },
  },
  {
    name: "a temp name that climbs out of the folder (staging)",
    malformed: true,
    build: async (t, pid) => {
      const name = `v.${pid}-${ID}.hashline-new.tmp`;
      return journal(pid, t.root, "staging", [
        await forward(
          join(t.root, "a.txt"),
          pid,
          join(t.outside, name),
          `./../outside/${name}`,
        ),
      ]);
    },
  },
  {
    name: "a backup name that climbs out of the folder (rolling back)",
    malformed: true,
    build: async (t, pid) => {
      const name = `v.${pid}-${ID}.hashline-old.tmp`;
      await writeFile(join(t.outside, name), PLANTED);
      const entry = await forward(join(t.root, "b.txt"), pid);
      // The target "holds this commit's new content": its inode is newIno.
      entry.newIno = (await stat(join(t.root, "b.txt"))).ino;
      return journal(pid, t.root, "rolling-back", [{
        ...entry,
        backup: `./../outside/${name}`,
      }]);
    },
  },
  {
    name: "a journal cut short",
    malformed: true,
    build: async (t, pid) =>
      journal(pid, t.root, "committing", [
        await forward(join(t.root, "a.txt"), pid),
      ]).slice(0, 60),
  },
  ...[
    ["null", "null"],
    ["an array", "[]"],
    ["an empty object", "{}"],
    ["version 1", JSON.stringify({ version: 1, id: ID, entries: [] })],
  ].map(([what, text]): Case => ({
    name: `a journal that is ${what}`,
    malformed: true,
    build: () => Promise.resolve(text),
  })),
  ...[
    ["entries that are not a list", "x"],
    ["a null entry", [null]],
    ["an entry without a target", [{ temp: "x", existed: true }]],
    ["a relative target", [{
      target: "a.txt",
      temp: `.a.txt.PID-${ID}.hashline-new.tmp`,
      backup: null,
      existed: true,
      old: null,
      newIno: null,
    }]],
  ].map(([what, entries]): Case => ({
    name: `a journal with ${what}`,
    malformed: true,
    build: (t, pid) =>
      Promise.resolve(
        JSON.stringify({
          version: 2,
          id: ID,
          pid,
          root: t.root,
          state: "committing",
          entries: JSON.parse(
            JSON.stringify(entries).replaceAll("PID", String(pid)),
          ),
        }),
      ),
  })),
  {
    name: "an entry with malformed identities",
    build: async (t, pid) =>
      journal(pid, t.root, "committing", [{
        ...(await forward(join(t.root, "a.txt"), pid)),
        old: "not an identity",
        newIno: "x",
      }]),
  },
];

interface Outcome {
  report?: RecoveryReport;
  error?: unknown;
  patchError?: unknown;
  journalName: string;
  journalDir: string;
  outsideBefore: Map<string, string>;
  outsideAfter: Map<string, string>;
  a: string;
  b: string;
  aBeforePatch: string;
}

describe("forged and damaged journals", () => {
  const trees: Tree[] = [];
  const outcomes = new Map<string, Outcome>();
  before(async () => {
    const pid = await deadPid();
    for (const c of CASES) {
      const t = await makeTree();
      trees.push(t);
      await writeFile(join(t.root, "a.txt"), A);
      await writeFile(join(t.root, "b.txt"), B);
      await writeFile(join(t.outside, "victim.txt"), VICTIM);
      await symlink(t.outside, join(t.root, "lnk"));
      const text = await c.build(t, pid);
      const journalDir = c.inRoot
        ? join(t.root, ".hashline", "journal")
        : join(t.state, "journal");
      await mkdir(journalDir, { recursive: true });
      const journalName = `1700000000000-${ID}.json`;
      await writeFile(join(journalDir, journalName), text);
      const outsideBefore = await snapshot(t.outside);
      const ws = t.open();
      const o: Partial<Outcome> = { journalName, journalDir, outsideBefore };
      try {
        o.report = await ws.recover();
      } catch (error) {
        o.error = error;
      }
      o.aBeforePatch = await readFile(join(t.root, "a.txt"), "utf8");
      try {
        const view = await ws.read("a.txt");
        await ws.patch({
          files: [{
            path: "a.txt",
            ops: [{
              op: "replace",
              start: anchorAt(view.text, 2),
              lines: ["patched a"],
            }],
          }],
        });
      } catch (error) {
        o.patchError = error;
      }
      o.outsideAfter = await snapshot(t.outside);
      o.a = await readFile(join(t.root, "a.txt"), "utf8");
      o.b = await readFile(join(t.root, "b.txt"), "utf8");
      outcomes.set(c.name, o as Outcome);
    }
  }, { timeout: 60_000 });
  after(() => Promise.all(trees.map((t) => t.cleanup())));

  for (const c of CASES) {
    describe(c.name, () => {
      const get = () => outcomes.get(c.name)!;
      it("recovery and the next patch do not throw", () => {
        const o = get();
        assert.equal(o.error, undefined, String((o.error as Error)?.stack));
        assert.equal(
          o.patchError,
          undefined,
          String((o.patchError as Error)?.stack),
        );
      });
      it("nothing outside the root is touched", () => {
        const o = get();
        assert.deepEqual(o.outsideAfter, o.outsideBefore);
      });
      it("no root file is replaced by a planted file", () => {
        const o = get();
        assert.equal(o.aBeforePatch, A);
        assert.equal(o.b, B);
        if (o.patchError === undefined) {
          assert.equal(o.a, "original a\npatched a\n");
        }
      });
      if (c.malformed) {
        it(
          "the journal is reported by name and set aside",
          async () => {
            const o = get();
            assert.equal(
              o.report?.malformed.length,
              1,
              JSON.stringify(o.report),
            );
            assert.ok(
              o.report!.malformed[0].includes(o.journalName),
              o.report!.malformed[0],
            );
            assert.deepEqual(
              (await readdir(o.journalDir)).sort(),
              [`${o.journalName}.malformed`],
            );
          },
        );
      } else if (c.inRoot) {
        it("the journal is left alone (it is not this workspace's)", async () => {
          const o = get();
          assert.deepEqual(o.report, {
            rolledForward: 0,
            rolledBack: 0,
            malformed: [],
            skipped: [],
          });
          assert.deepEqual(await readdir(o.journalDir), [o.journalName]);
        });
      }
    });
  }
});
