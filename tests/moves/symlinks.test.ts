/**
 * File operations and symlinks, through the library, the CLI and HTTP:
 * deleting or renaming a symlink acts on the link, never on the file it
 * points to (inside the root or outside it), history names the link, and
 * undo puts back the same link; a renamed link must still lead inside the
 * root; a patch naming
 * one file under two spellings (the file and a link to it, or a path
 * through `d -> .`) is refused `OVERLAP` (HTTP 409) naming both. Every
 * refusal leaves every byte, inside the root and outside it, as it was.
 */
import assert from "node:assert/strict";
import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { call } from "../http/_helpers.ts";
import { makeTree, snapshot, type Tree } from "../workspace/_helpers.ts";
import { cliDoor, type Door, httpDoor, libraryDoor } from "../_doors.ts";

const DOORS: [string, (t: Tree) => Door][] = [
  ["library", libraryDoor],
  ["cli", cliDoor],
  ["http", httpDoor],
];

/** a.txt, l.txt -> a.txt, d -> ., out.txt -> ../outside/secret.txt. */
async function seed(t: Tree): Promise<void> {
  await writeFile(join(t.root, "a.txt"), "one\ntwo\n");
  await symlink("a.txt", join(t.root, "l.txt"));
  await symlink(".", join(t.root, "d"));
  await writeFile(join(t.outside, "secret.txt"), "keep\n");
  await symlink("../outside/secret.txt", join(t.root, "out.txt"));
}

async function refused(
  t: Tree,
  door: Door,
  patch: string,
  code: string,
  message: RegExp,
  entries = 0,
): Promise<void> {
  const inside = await snapshot(t.root);
  const outside = await snapshot(t.outside);
  const r = await door.patch(patch);
  assert.equal(r.ok, false, `${door.name}: expected ${code}, got ${r.text}`);
  assert.equal(r.code, code, `${door.name}: ${r.text}`);
  assert.match(r.text, message, door.name);
  assert.deepEqual(await snapshot(t.root), inside, door.name);
  assert.deepEqual(await snapshot(t.outside), outside, door.name);
  assert.equal((await door.log()).length, entries, door.name);
}

/** Expects the patch to land, the root to look as `after` says, and its undo to put back every byte. */
async function landsAndUndoes(
  t: Tree,
  door: Door,
  patch: string,
  summary: RegExp,
  file: Record<string, unknown>,
  after: (before: Map<string, string>) => Map<string, string>,
): Promise<void> {
  const inside = await snapshot(t.root);
  const outside = await snapshot(t.outside);
  const r = await door.patch(patch);
  assert.equal(r.ok, true, `${door.name}: ${r.text}`);
  // The CLI door answers its --json body.
  const text = r.text.startsWith("{") ? JSON.parse(r.text).summary : r.text;
  assert.match(text, summary, door.name);
  assert.deepEqual(await snapshot(t.root), after(new Map(inside)), door.name);
  assert.deepEqual(await snapshot(t.outside), outside, door.name);
  const [entry] = await door.log();
  assert.deepEqual(entry.files, [{ added: 0, removed: 0, ...file }]);
  const u = await door.undo(entry.id);
  assert.equal(u.ok, true, `${door.name} undo: ${u.text}`);
  assert.deepEqual(await snapshot(t.root), inside, `${door.name} undo`);
  assert.deepEqual(await snapshot(t.outside), outside, `${door.name} undo`);
}

describe("file operations on symlinks", () => {
  for (const [name, open] of DOORS) {
    it(
      `${name}: deleting or renaming a link acts on the link; undo puts it back`,
      { timeout: 60_000 },
      async () => {
        const t = await makeTree();
        try {
          await seed(t);
          const door = open(t);
          try {
            await landsAndUndoes(
              t,
              door,
              "@@- l.txt\n",
              /Deleted symlink l\.txt \(to "a\.txt"\)/,
              { path: "l.txt", deleted: true, link: "a.txt" },
              (m) => (m.delete("l.txt"), m),
            );
            await landsAndUndoes(
              t,
              door,
              "@@ l.txt -> m.txt\n",
              /Renamed symlink l\.txt → m\.txt \(to "a\.txt"\)/,
              { path: "m.txt", renamedFrom: "l.txt", link: "a.txt" },
              (m) => (m.delete("l.txt"), m.set("m.txt", "link:a.txt"), m),
            );
            // A link leading outside: deleting it touches nothing outside,
            // and its undo puts back the same link.
            await landsAndUndoes(
              t,
              door,
              "@@- out.txt\n",
              /Deleted symlink out\.txt \(to "\.\.\/outside\/secret\.txt"\)/,
              { path: "out.txt", deleted: true, link: "../outside/secret.txt" },
              (m) => (m.delete("out.txt"), m),
            );
            const entries = (await door.log()).length;
            const [first] = await door.read("l.txt");
            const refusals: [string, string, RegExp][] = [
              [
                "@@ out.txt -> o2.txt\n",
                "OUTSIDE_ROOT",
                /cannot rename the symlink \(to "\.\.\/outside\/secret\.txt"\) to "o2\.txt": it leads outside the workspace root/,
              ],
              [
                "@@ l.txt -> sub/l.txt\n",
                "OUTSIDE_ROOT",
                /to "sub\/l\.txt": from there it would lead outside the workspace root or nowhere/,
              ],
              ["@@ l.txt -> a.txt\n", "EXISTS", /a file stands there/],
              [
                `@@ l.txt -> m.txt\n= ${first}\n~ONE\n`,
                "BAD_INPUT",
                /it is a symlink \(to "a\.txt"\), which has no lines of its own/,
              ],
            ];
            for (const [patch, code, message] of refusals) {
              await refused(t, door, patch, code, message, entries);
            }
          } finally {
            await door.close();
          }
        } finally {
          await t.cleanup();
        }
      },
    );

    it(
      `${name}: one file under two spellings is refused OVERLAP`,
      { timeout: 60_000 },
      async () => {
        const t = await makeTree();
        try {
          await seed(t);
          const door = open(t);
          try {
            const [first, second] = await door.read("a.txt");
            const cases: [string, RegExp][] = [
              [
                "@@ a.txt -> b.txt\n@@ d/a.txt -> c.txt\n",
                /"d\/a\.txt" and "a\.txt" name the same file/,
              ],
              [
                "@@- a.txt\n@@- d/a.txt\n",
                /"d\/a\.txt" and "a\.txt" name the same file/,
              ],
              [
                `@@ a.txt -> b.txt\n@@ l.txt\n= ${first}\n~ONE\n`,
                /"l\.txt" and "a\.txt" name the same file/,
              ],
              [
                `@@ a.txt\nm ${first} > l.txt:${second}\n`,
                /"l\.txt" and "a\.txt" name the same file/,
              ],
            ];
            for (const [patch, message] of cases) {
              await refused(t, door, patch, "OVERLAP", message);
            }
          } finally {
            await door.close();
          }
        } finally {
          await t.cleanup();
        }
      },
    );
  }

  for (const step of ["rename-0", "rename-1", "rename-2"]) {
    it(
      `library: a link's rename that fails after ${step} is rolled back`,
      { timeout: 60_000 },
      async () => {
        const t = await makeTree();
        try {
          await seed(t);
          const before = await snapshot(t.root);
          const ws = t.open({
            hooks: {
              afterStep: (name) => {
                if (name === step) throw new Error(`cut at ${step}`);
              },
            },
          });
          await assert.rejects(
            ws.patch("@@ l.txt -> m.txt\n@@- out.txt\n"),
            new RegExp(`cut at ${step}`),
          );
          assert.deepEqual(await snapshot(t.root), before);
          assert.equal((await ws.history()).length, 0);
        } finally {
          await t.cleanup();
        }
      },
    );
  }

  it(
    "http: two spellings answer 409, not 500",
    { timeout: 60_000 },
    async () => {
      const t = await makeTree();
      try {
        await seed(t);
        const app = createApp({ root: t.root, stateDir: t.state });
        const read = await call(app, "POST", "/v1/files/read", {
          path: "a.txt",
        });
        assert.equal(read.status, 200);
        const before = await snapshot(t.root);
        const r = await call(app, "POST", "/v1/files/patch", {
          patch: "@@ a.txt -> b.txt\n@@ d/a.txt -> c.txt\n",
        });
        assert.equal(r.status, 409, JSON.stringify(r.body));
        // deno-lint-ignore no-explicit-any
        assert.equal((r.body as any).error.code, "OVERLAP");
        assert.deepEqual(await snapshot(t.root), before);
      } finally {
        await t.cleanup();
      }
    },
  );
});
