/**
 * Read content as anchored lines, patch it by anchor, and see a stale patch
 * refused, with the package's public surface only.
 *
 *   node_modules/.bin/deno run -A examples/patch_content.ts
 *   node_modules/.bin/bun run examples/patch_content.ts
 *   node --import tsx examples/patch_content.ts
 *
 * @module
 */

import {
  applyHashlineEdit,
  applyPatch,
  formatHashlines,
  parsePatch,
  PatchRefusedError,
} from "../mod.ts";

const source = [
  "def greet(name):",
  '    return f"hello {name}"',
  "",
  "print(greet('world'))",
  "",
].join("\n");

// 1. An anchored read: every line as LINE:HH|content.
const view = formatHashlines(source);
console.log(view.text);
// 1:fb|def greet(name):
// 2:5d|    return f"hello {name}"
// 3:c5|
// 4:04|print(greet('world'))

// 2. Ops in the compact text form, naming lines by the anchors above
// (`@@ PATH` lines group ops by file; content edits need none).
const ops = `= 2:5d
~    return f"hello, {name}!"
+ 1:fb
~    """Say hello."""
`;
const edited = applyPatch(source, ops);
console.log(`\nEdited:\n${formatHashlines(edited).text}`);

// The same ops as a file patch: what a workspace or `hashline patch` takes.
const patch = parsePatch(`@@ greet.py\n${ops}`);
console.log(
  `\nA patch of ${patch.files[0].path}: ${patch.files[0].ops.length} ops`,
);

// 3. The same anchors are stale now: the patch is refused whole.
try {
  applyPatch(edited, ops);
  throw new Error("a stale patch was applied");
} catch (e) {
  if (!(e instanceof PatchRefusedError)) throw e;
  console.log(`\n${e.message}`);
}

// 4. The single-edit call returns an error instead of throwing.
const single = applyHashlineEdit(source, {
  startLine: 4,
  startHash: "00",
  newContent: "print(greet('you'))",
});
console.log(`\n${single.error}`);
