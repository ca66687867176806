/**
 * Read content as anchored lines, patch it by anchor, and see a stale patch
 * refused. Run: `deno run examples/patch_content.ts` (or `bun run …`,
 * `node --import tsx …`).
 *
 * @module
 */

import { formatHashlines } from "../src/anchor/format.ts";
import { PatchRefusedError } from "../src/errors.ts";
import { applyPatch, editContent, freshAnchors } from "../src/patch/apply.ts";
import { applyHashlineEdit } from "../src/patch/hashline_edit.ts";
import { parsePatch } from "../src/patch/parse.ts";

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

// 2. A patch in the compact text form, naming lines by the anchors above.
const patch = parsePatch(`
= 2:5d
~    return f"hello, {name}!"
+ 1:fb
~    """Say hello."""
`);
const edited = editContent(source, patch.files[0].ops);
console.log(`\nEdited (+${edited.added} -${edited.removed}); fresh anchors:`);
for (const region of edited.regions) {
  console.log(freshAnchors(edited.content, region));
}

// 3. The same anchors are stale now: the patch is refused whole.
try {
  applyPatch(edited.content, patch);
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
