/**
 * The revision store in a few calls: put a source, read a window around a
 * query, edit it into a new revision, patch that with anchors, walk the
 * lineage, and export the result.
 *
 *   node_modules/.bin/deno run -A examples/store.ts
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lineHash } from "../src/hash/fnv.ts";
import { openFileStore } from "../src/store/mod.ts";

const dir = await mkdtemp(join(tmpdir(), "hashline-example-"));
const store = openFileStore(join(dir, ".hashline"));
try {
  const base = await store.put(
    "export function total(items) {\n  let sum = 0;\n  for (const i of items) sum -= i.price;\n  return sum;\n}\n",
  );
  console.log("put    ", base.handle, base.ref);

  const hit = await store.source(base.handle, { query: "sum -=" });
  console.log(
    "source  found:",
    hit.found,
    "at offset",
    hit.offset,
    "of",
    hit.totalChars,
  );

  const fixed = await store.edit(base.handle, [{
    oldString: "sum -= i.price",
    newString: "sum += i.price",
  }]);
  console.log(
    "edit   ",
    fixed.handle,
    "from",
    fixed.parentRef.slice(0, 19) + "…",
  );
  console.log(fixed.diff);

  // A revision never changes, so anchors read from it stay valid.
  const text = await store.get(fixed.handle);
  const line2 = text.split("\n")[1];
  const patched = await store.patch(
    fixed.handle,
    `= 2:${lineHash(line2)}\n~  let sum = 0; // cents\n`,
  );
  console.log("patch  ", patched.handle);

  for (const h of await store.history(patched.handle)) {
    console.log("history", h.handle, h.op.padEnd(5), h.createdAt);
  }

  try {
    await store.get("p_000000000000");
  } catch (e) {
    console.log("unknown handle →", (e as Error).message);
  }

  const out = join(dir, "total.js");
  const done = await store.exportTo(patched.handle, out);
  console.log("export ", done.bytes, "bytes →", done.path);
  console.log(await readFile(out, "utf8"));
} finally {
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
