/**
 * File operations and symlinks, through the library, the CLI and HTTP:
 * deleting or renaming a symlink is refused `NOT_A_FILE` and never reaches
 * the file it points to (inside the root or outside it); a patch naming
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
import { cliDoor, type Door, httpDoor, libraryDoor } from "./_doors.ts";

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
): Promise<void> {
  const inside = await snapshot(t.root);
  const outside = await snapshot(t.outside);
  const r = await door.patch(patch);
  assert.equal(r.ok, false, `${door.name}: expected ${code}, got ${r.text}`);
  assert.equal(r.code, code, `${door.name}: ${r.text}`);
  assert.match(r.text, message, door.name);
  assert.deepEqual(await snapshot(t.root), inside, door.name);
  assert.deepEqual(await snapshot(t.outside), outside, door.name);
  assert.equal((await door.log()).length, 0, door.name);
}

describe("file operations on symlinks", () => {
  for (const [name, open] of DOORS) {
    it(
      `${name}: deleting or renaming a link never touches its target`,
      { timeout: 60_000 },
      async () => {
        const t = await makeTree();
        try {
          await seed(t);
          const door = open(t);
          try {
            const [first] = await door.read("l.txt");
            await refused(
              t,
              door,
              "@@- l.txt\n",
              "NOT_A_FILE",
              /Cannot delete "l\.txt": it is a symlink \(it points to "a\.txt"\)/,
            );
            await refused(
              t,
              door,
              "@@ l.txt -> moved.txt\n",
              "NOT_A_FILE",
              /Cannot rename "l\.txt": it is a symlink/,
            );
            await refused(
              t,
              door,
              `@@ l.txt -> moved.txt\n= ${first}\n~ONE\n`,
              "NOT_A_FILE",
              /it is a symlink/,
            );
            // A link leading outside: refused the same way, before the
            // confinement's own refusal, and the outside file is untouched.
            await refused(
              t,
              door,
              "@@- out.txt\n",
              "NOT_A_FILE",
              /Cannot delete "out\.txt": it is a symlink \(it points to "\.\.\/outside\/secret\.txt"\)/,
            );
            await refused(
              t,
              door,
              "@@ out.txt -> sub/out.txt\n",
              "NOT_A_FILE",
              /Cannot rename "out\.txt": it is a symlink/,
            );
            // The file itself, by its own path, is deleted as usual.
            await door.read("a.txt");
            const r = await door.patch("@@- a.txt\n");
            assert.equal(r.ok, true, r.text);
            assert.match(r.text, /Deleted a\.txt \(-2\)/);
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
