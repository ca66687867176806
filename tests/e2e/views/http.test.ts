/**
 * Several edits from one read over HTTP (docs/reads.md#views-several-edits-from-one-read):
 * a lean read, then three patches by bare number, top-down, each its own
 * request of one `Hashline-Session`; and a second edit naming a line the
 * first removed, refused with nothing written.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createApp } from "../../../src/http/app.ts";
import { call } from "../../http/_helpers.ts";
import { makeTree, snapshot, type Tree } from "../../workspace/_helpers.ts";

const T = { timeout: 60_000 };
const FILE = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n") +
  "\n";

describe("views over HTTP", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(join(t.root, "f.txt"), FILE);
  });
  afterEach(() => t.cleanup());

  it(
    "a lean read, then three patches by number, each its own request, land as meant",
    T,
    async () => {
      const app = createApp({ root: t.root, stateDir: t.state });
      const headers = { "hashline-session": "agent-1" };
      const read = await call(app, "POST", "/v1/files/read", {
        path: "f.txt",
        anchors: "lean",
      }, headers);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      for (const patch of ["+ 3\n~new", "- 8", "= 15\n~FIFTEEN"]) {
        const r = await call(app, "POST", "/v1/files/patch", {
          patch: `@@ f.txt\n${patch}`,
        }, headers);
        assert.equal(r.status, 200, JSON.stringify(r.body));
      }
      const want = FILE.replace("line 3\n", "line 3\nnew\n")
        .replace("line 8\n", "")
        .replace("line 15\n", "FIFTEEN\n");
      assert.equal(await readFile(join(t.root, "f.txt"), "utf8"), want);
      // Line 8 as read is gone: by number it names no line now.
      const before = await snapshot(t.root);
      const gone = await call(app, "POST", "/v1/files/patch", {
        patch: "@@ f.txt\n= 8\n~X",
      }, headers);
      assert.equal(gone.status, 409, JSON.stringify(gone.body));
      assert.equal(gone.body.error.code, "STALE_ANCHOR");
      assert.deepEqual(await snapshot(t.root), before);
    },
  );
});
