/**
 * Anchored reads and all-or-nothing patches on files under one root.
 *
 *   node_modules/.bin/deno run -A examples/workspace.ts
 *
 * @module
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openWorkspace } from "../src/workspace/mod.ts";

const root = await mkdtemp(join(tmpdir(), "hashline-example-"));
try {
  await writeFile(
    join(root, "greet.py"),
    "def greet(name):\n    return 'hi ' + name\n",
  );
  const ws = openWorkspace(root, { stateDir: join(root, ".hashline") });

  // 1. Read: every line comes back as LINE:HH|content.
  const view = await ws.read("greet.py");
  console.log(view.text);

  // 2. Patch by anchor (text form); the new file needs no read.
  const [, second] = view.text.split("\n");
  const anchor = second.slice(0, second.indexOf("|"));
  const result = await ws.patch(
    `@@ greet.py\n= ${anchor}\n~    return f"hello {name}"\n@@ README.md\n+\n~# greet`,
  );
  console.log(`\n${result.summary}`);

  // 3. The same anchor is stale now: the whole patch is refused, nothing written.
  try {
    await ws.patch(`@@ greet.py\n- ${anchor}`);
  } catch (error) {
    console.log(`\n${(error as Error).message}`);
  }
  console.log(`\n${await readFile(join(root, "greet.py"), "utf8")}`);
} finally {
  await rm(root, { recursive: true, force: true });
}
