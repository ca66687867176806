// A line number past the end of the file, after a lean read, is out of range
// (as a full anchor past the end is), not a line the model is told to read.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { call, errorOf, tempTree } from "../http/_helpers.ts";

const T = { timeout: 30_000 };
const FILE = "x\ny\nz\nw\n";

describe("bare line numbers past the end", () => {
  it(
    "HTTP: = 9 and m 9 > 1 on a 4-line file are OUT_OF_RANGE naming the line count; nothing written",
    T,
    async () => {
      const tree = await tempTree({ "x.txt": FILE });
      try {
        const app = createApp({
          root: tree.dir,
          stateDir: join(tree.dir, ".hashline"),
        });
        const read = await call(app, "POST", "/v1/files/read", {
          path: "x.txt",
          anchors: "lean",
        });
        assert.equal(read.status, 200);
        for (const patch of ["@@ x.txt\n= 9\n~Q", "@@ x.txt\nm 9 > 1"]) {
          const r = await call(app, "POST", "/v1/files/patch", { patch });
          assert.equal(r.status, 409, JSON.stringify(r.body));
          const error = errorOf(r);
          assert.equal(error.code, "OUT_OF_RANGE", patch);
          assert.match(
            error.message,
            /line 9 is out of range: the file has 4 lines/,
          );
          assert.doesNotMatch(error.message, /offset 9/);
          assert.equal(await readFile(join(tree.dir, "x.txt"), "utf8"), FILE);
        }
      } finally {
        await tree.cleanup();
      }
    },
  );
});
