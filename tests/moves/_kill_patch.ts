/**
 * The patch the kill test interrupts: it creates a file in a missing folder,
 * deletes one, renames one (with an edit, into a missing folder), edits one
 * and moves lines from it into another file, deletes one symlink and renames
 * another (the links themselves), all as one commit.
 */
import { chmod, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Workspace } from "../../src/workspace/mod.ts";

/** Writes the files the patch starts from. */
export async function seedKillTree(root: string): Promise<void> {
  await writeFile(join(root, "a.ts"), "a1\na2\na3\na4\na5\na6\n");
  await writeFile(join(root, "b.ts"), "b1\r\nb2\r\n");
  await writeFile(join(root, "c.ts"), "c1\nc2\n");
  await writeFile(join(root, "gone.ts"), "g1\ng2\n");
  await chmod(join(root, "b.ts"), 0o751);
  await chmod(join(root, "gone.ts"), 0o600);
  await symlink("a.ts", join(root, "link.ts"));
  await symlink("c.ts", join(root, "dead.ts"));
}

const anchors = (text: string) =>
  text.split("\n").map((l) => l.slice(0, l.indexOf("|")));

/** Reads every file and sends the patch. */
export async function runKillPatch(ws: Workspace): Promise<void> {
  const a = anchors((await ws.read("a.ts")).text);
  const b = anchors((await ws.read("b.ts")).text);
  const c = anchors((await ws.read("c.ts")).text);
  await ws.read("gone.ts");
  await ws.patch({
    files: [
      {
        path: "new/dir/n.ts",
        create: true,
        ops: [{ op: "append", lines: ["n1", "n2"] }],
      },
      { path: "gone.ts", delete: true },
      { path: "link.ts", rename: "linked.ts" },
      { path: "dead.ts", delete: true },
      {
        path: "b.ts",
        rename: "lib/b.ts",
        ops: [{ op: "replace", start: b[0], lines: ["B1"] }],
      },
      {
        path: "a.ts",
        ops: [
          { op: "replace", start: a[0], lines: ["A1"] },
          { op: "move", start: a[2], end: a[3], to: "c.ts", after: c[0] },
        ],
      },
    ],
  } as never);
}
