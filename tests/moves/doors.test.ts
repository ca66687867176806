/**
 * Moves, copies and file operations through the library, the CLI and MCP:
 * each change is one history entry whose undo gives back the exact bytes
 * (modes included), and each refusal carries its code and leaves every
 * byte on disk as it was.
 */
import assert from "node:assert/strict";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { makeTree, snapshot, type Tree } from "../workspace/_helpers.ts";
import {
  cliDoor,
  type Door,
  httpDoor,
  libraryDoor,
  mcpDoor,
} from "../_doors.ts";

const FN = [
  "export function helper(x: number): number {",
  "  const y = x * 2;",
  "  return y + 1;",
  "}",
];
const A = ["import x from './x';", "", ...FN, "", "export const main = 1;"]
  .join("\n") + "\n";
const B = "// b\r\nexport const b = 2;\r\n";

async function seed(t: Tree): Promise<void> {
  await writeFile(join(t.root, "a.ts"), A);
  await writeFile(join(t.root, "b.ts"), B);
  await writeFile(join(t.root, "empty.ts"), "");
}

/** Expects a refusal with `code` (checked where the door shows codes) and nothing changed on disk. */
async function refused(
  t: Tree,
  door: Door,
  patch: { files: unknown[] } | string,
  code: string,
  message: RegExp,
): Promise<void> {
  const before = await snapshot(t.root);
  const entries = (await door.log()).length;
  const r = await door.patch(patch);
  assert.equal(r.ok, false, `${door.name}: expected ${code}, got ${r.text}`);
  if (r.code !== undefined) assert.equal(r.code, code, r.text);
  assert.match(r.text, message, `${door.name} ${code}`);
  assert.deepEqual(await snapshot(t.root), before, `${door.name} ${code}`);
  assert.equal((await door.log()).length, entries);
}

/** Expects the patch to land as one entry whose undo gives back every byte. */
async function landsAndUndoes(
  t: Tree,
  door: Door,
  patch: { files: unknown[] } | string,
  expect: (summary: string) => Promise<void>,
): Promise<void> {
  const before = await snapshot(t.root);
  const entries = (await door.log()).length;
  const r = await door.patch(patch);
  assert.ok(r.ok, `${door.name}: ${r.text}`);
  await expect(r.text);
  const log = await door.log();
  assert.equal(log.length, entries + 1, `${door.name}: one entry`);
  const u = await door.undo(log[0].id);
  assert.ok(u.ok, `${door.name} undo: ${u.text}`);
  assert.deepEqual(await snapshot(t.root), before, `${door.name} undo`);
}

const read = (t: Tree, p: string) =>
  import("node:fs/promises").then((fs) => fs.readFile(join(t.root, p), "utf8"));

async function scenarios(t: Tree, door: Door): Promise<void> {
  await seed(t);
  let a = await door.read("a.ts");
  let b = await door.read("b.ts");
  await door.read("empty.ts");

  // Move a function below another line of the same file, by range.
  await landsAndUndoes(t, door, {
    files: [{
      path: "a.ts",
      ops: [{ op: "move", start: a[2], end: a[5], after: a[7] }],
    }],
  }, async (summary) => {
    assert.match(summary, /Moved lines 3–6 → a\.ts:5/);
    assert.equal(
      await read(t, "a.ts"),
      ["import x from './x';", "", "", "export const main = 1;", ...FN]
        .join("\n") + "\n",
    );
  });
  a = await door.read("a.ts");
  // Copy within the file (text form), right below itself.
  await landsAndUndoes(
    t,
    door,
    `@@ a.ts\nc ${a[2]}..${a[5]} > ${a[5]}\n`,
    async (summary) => {
      assert.match(summary, /Copied lines 3–6 → a\.ts:7/);
      const lines = (await read(t, "a.ts")).split("\n");
      assert.deepEqual(lines.slice(2, 10), [...FN, ...FN]);
    },
  );
  a = await door.read("a.ts");
  // Move across files: the lines take the target's CRLF.
  await landsAndUndoes(t, door, {
    files: [{
      path: "a.ts",
      ops: [{ op: "move", start: a[2], end: a[5], to: "b.ts", after: b[0] }],
    }],
  }, async (summary) => {
    assert.match(summary, /Moved lines 3–6 → b\.ts:2/);
    assert.equal(
      await read(t, "b.ts"),
      `// b\r\n${FN.join("\r\n")}\r\nexport const b = 2;\r\n`,
    );
    assert.ok(!(await read(t, "a.ts")).includes("helper"));
  });
  a = await door.read("a.ts");
  b = await door.read("b.ts");
  // Copy across files into an empty file (appended; the source's terminator).
  await landsAndUndoes(
    t,
    door,
    `@@ a.ts\nc ${a[2]}..${a[5]} > empty.ts\n`,
    async (summary) => {
      assert.match(summary, /Copied lines 3–6 → empty\.ts:1/);
      assert.equal(await read(t, "empty.ts"), FN.join("\n") + "\n");
      assert.equal(await read(t, "a.ts"), A);
    },
  );
  a = await door.read("a.ts");
  b = await door.read("b.ts");

  // A target inside the moved range.
  await refused(
    t,
    door,
    {
      files: [{
        path: "a.ts",
        ops: [{ op: "move", start: a[2], end: a[5], after: a[3] }],
      }],
    },
    "OVERLAP",
    /inside the lines it moves/,
  );
  // By block anchor: the function that opens on line 3, after the last line.
  await landsAndUndoes(t, door, {
    files: [{
      path: "a.ts",
      ops: [{ op: "move", start: `${a[2]}*`, after: a[7] }],
    }],
  }, async (summary) => {
    assert.match(summary, /Moved lines 3–6 → a\.ts:5/);
    assert.equal(
      await read(t, "a.ts"),
      ["import x from './x';", "", "", "export const main = 1;", ...FN]
        .join("\n") + "\n",
    );
  });
  a = await door.read("a.ts");
  // A block copied into another file (text form), taking its CRLF ends.
  await landsAndUndoes(
    t,
    door,
    `@@ a.ts\nc ${a[2]}* > b.ts:${b[1]}\n`,
    async (summary) => {
      assert.match(summary, /Copied lines 3–6 → b\.ts:3/);
      assert.equal(await read(t, "b.ts"), B + FN.join("\r\n") + "\r\n");
      assert.equal(await read(t, "a.ts"), A);
    },
  );
  a = await door.read("a.ts");
  // A stale source: refused with fresh anchors.
  await writeFile(join(t.root, "a.ts"), A.replace("x * 2", "x * 3"));
  const stale = await door.patch({
    files: [{
      path: "a.ts",
      ops: [{ op: "move", start: a[2], end: a[5], to: "b.ts", after: b[0] }],
    }],
  });
  assert.equal(stale.ok, false);
  if (stale.code) assert.equal(stale.code, "STALE_ANCHOR");
  assert.match(stale.text, /4:[0-9a-f]{2}\| {2}const y = x \* 3;/);
  assert.equal(await read(t, "b.ts"), B);
  assert.equal(await read(t, "a.ts"), A.replace("x * 2", "x * 3"));
  await writeFile(join(t.root, "a.ts"), A);
  a = await door.read("a.ts");
  // An unread target file.
  await writeFile(join(t.root, "c.ts"), "c\n");
  await refused(
    t,
    door,
    {
      files: [{
        path: "a.ts",
        ops: [{ op: "move", start: a[2], to: "c.ts", after: "1:b7" }],
      }],
    },
    "NOT_READ",
    /read it first|not read/i,
  );

  // Create (missing folder), delete after a full read, rename with and without ops.
  await landsAndUndoes(
    t,
    door,
    {
      files: [{
        path: "deep/er/n.ts",
        create: true,
        ops: [{ op: "append", lines: ["n"] }],
      }],
    },
    async (summary) => {
      assert.match(summary, /Created deep\/er\/n\.ts \(\+1\)/);
      assert.equal(await read(t, "deep/er/n.ts"), "n\n");
    },
  );
  await chmod(join(t.root, "b.ts"), 0o640);
  b = await door.read("b.ts");
  await landsAndUndoes(t, door, "@@- b.ts\n", async (summary) => {
    assert.match(summary, /Deleted b\.ts \(-2\)/);
    await assert.rejects(read(t, "b.ts"), { code: "ENOENT" });
  });
  b = await door.read("b.ts");
  await landsAndUndoes(t, door, "@@ b.ts -> lib/b2.ts\n", async (summary) => {
    assert.match(summary, /Renamed b\.ts → lib\/b2\.ts \(\+0 -0\)/);
    assert.equal(await read(t, "lib/b2.ts"), B);
  });
  b = await door.read("b.ts");
  await landsAndUndoes(t, door, {
    files: [{
      path: "b.ts",
      rename: "b3.ts",
      ops: [{ op: "replace", start: b[1], lines: ["export const b = 3;"] }],
    }],
  }, async (summary) => {
    assert.match(summary, /Renamed b\.ts → b3\.ts \(\+1 -1\)/);
    assert.equal(await read(t, "b3.ts"), "// b\r\nexport const b = 3;\r\n");
  });

  // Refused, both files unchanged.
  b = await door.read("b.ts");
  await refused(
    t,
    door,
    {
      files: [{
        path: "a.ts",
        create: true,
        ops: [{ op: "append", lines: ["x"] }],
      }],
    },
    "EXISTS",
    /already stands/,
  );
  // A delete needs part of the file read, and the file unchanged since.
  await writeFile(join(t.root, "p.ts"), A);
  await door.read("p.ts", 2);
  await writeFile(
    join(t.root, "p.ts"),
    A.replace("export const main = 1;", "export const main = 2;"),
  );
  await refused(
    t,
    door,
    "@@- p.ts\n",
    "NOT_READ",
    /seen only 2 of its 8 lines and the file changed since that read/,
  );
  a = await door.read("a.ts");
  await writeFile(join(t.root, "a.ts"), A + "// later\n");
  await refused(t, door, "@@- a.ts\n", "CHANGED", /changed|line 9/);
  await writeFile(join(t.root, "a.ts"), A);
  a = await door.read("a.ts");
  await refused(t, door, "@@ b.ts -> a.ts\n", "EXISTS", /never overwrites/);
  await mkdir(join(t.root, ".git"), { recursive: true });
  await writeFile(join(t.root, ".git", "config"), "[core]\n");
  await refused(t, door, "@@ b.ts -> .git/config\n", "DENIED", /\.git/i);
  await refused(t, door, "@@ b.ts -> .GIT/x\n", "DENIED", /\.git/i);
  await refused(
    t,
    door,
    "@@ b.ts -> ../out.ts\n",
    "OUTSIDE_ROOT",
    /outside|root/i,
  );

  // One patch that creates, deletes, renames and edits: one stale op refuses it all.
  await writeFile(join(t.root, "gone.ts"), "g1\ng2\n");
  await chmod(join(t.root, "gone.ts"), 0o600);
  await chmod(join(t.root, "b.ts"), 0o750);
  const g = await door.read("gone.ts");
  b = await door.read("b.ts");
  a = await door.read("a.ts");
  const four = (edit: string) => ({
    files: [
      {
        path: "made/new.ts",
        create: true,
        ops: [{ op: "append", lines: ["new"] }],
      },
      { path: "gone.ts", delete: true },
      {
        path: "b.ts",
        rename: "moved/b.ts",
        ops: [{ op: "delete", start: b[0] }],
      },
      {
        path: "a.ts",
        ops: [{ op: "replace", start: edit, lines: ["// top"] }],
      },
    ],
  });
  assert.equal(g.length, 2);
  await refused(
    t,
    door,
    four("1:00"),
    "STALE_ANCHOR",
    /1:[0-9a-f]{2}\|import x/,
  );
  await landsAndUndoes(t, door, four(a[0]), async (summary) => {
    assert.match(summary, /Created made\/new\.ts \(\+1\)/);
    assert.match(summary, /Deleted gone\.ts \(-2\)/);
    assert.match(summary, /Renamed b\.ts → moved\/b\.ts \(\+0 -1\)/);
    assert.match(summary, /Edited a\.ts \(\+1 -1\)/);
    assert.equal(await read(t, "moved/b.ts"), "export const b = 2;\r\n");
  });
}

describe("moves and file operations through every door", () => {
  for (const make of [libraryDoor, cliDoor, httpDoor, mcpDoor]) {
    it(make.name.replace("Door", ""), { timeout: 60_000 }, async () => {
      const t = await makeTree();
      const door = await make(t);
      try {
        await scenarios(t, door);
      } finally {
        await door.close();
        await t.cleanup();
      }
    });
  }
});
