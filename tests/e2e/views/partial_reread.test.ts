/**
 * A window or outline re-read after the file drifted proves nothing about
 * the lines it did not show (docs/reads.md#views-several-edits-from-one-read):
 * an edit built from the first read still goes through the drift alignment,
 * so it lands on the line it meant (rebase on) or is refused — never on
 * another function's `}` that now stands at its old number.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { lineHash } from "../../../src/hash/fnv.ts";
import { openWorkspace } from "../../../src/workspace/mod.ts";
import { makeTree, type Tree } from "../../workspace/_helpers.ts";

const FNS = ["a", "b", "c", "d"].flatMap((n, i) => [
  `function ${n}() {`,
  `  call${i}();`,
  "}",
]);
const FILE = FNS.join("\n") + "\n";
// Three new lines at the top put b's "}" (line 6 as read) at line 9, the
// number c's "}" had in the first read.
const DRIFTED = "// one\n// two\n// three\n" + FILE;

describe("a partial re-read after drift", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(join(t.root, "f.ts"), FILE);
  });
  afterEach(() => t.cleanup());

  for (const lean of [false, true]) {
    for (const again of ["window", "outline"] as const) {
      for (const rebase of [false, true]) {
        it(
          `${lean ? "lean" : "L:HH"}, ${again} re-read, rebase ${
            rebase ? "on" : "off"
          }: never lands on the other "}"`,
          {
            timeout: 30_000,
          },
          async () => {
            const ws = openWorkspace(t.root, { stateDir: t.state });
            const form = lean ? { anchors: "lean" as const } : {};
            await ws.read("f.ts", form);
            await writeFile(join(t.root, "f.ts"), DRIFTED);
            await ws.read(
              "f.ts",
              again === "window"
                ? { ...form, offset: 1, limit: 3 }
                : { ...form, outline: true },
            );
            const anchor = lean ? "9" : `9:${lineHash("}")}`;
            const out = await ws.patch(`@@ f.ts\n= ${anchor}\n~} // end of c`, {
              rebase,
            }).then(() => null, (e) => e);
            const now = await readFile(join(t.root, "f.ts"), "utf8");
            if (out !== null) {
              assert.equal(now, DRIFTED, String(out));
              assert.equal(
                rebase,
                false,
                `refused with rebase on: ${out.message}`,
              );
            } else {
              const lines = now.split("\n");
              assert.equal(lines[8], "}", "b's } was replaced");
              assert.equal(lines[11], "} // end of c");
            }
          },
        );
      }
    }
  }
});
