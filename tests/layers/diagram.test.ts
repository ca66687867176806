/**
 * The layer diagram scripts/check_layers.ts prints, and the block of
 * ARCHITECTURE.md it keeps in step, come from the one list of layers, which
 * names every folder of src/.
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import {
  layerDiagram,
  LAYERS,
  ROOT,
  withDiagram,
} from "../../scripts/check_layers.ts";

describe("the layer diagram", () => {
  it(
    "names every folder of src/ once, top layer first",
    { timeout: 10_000 },
    () => {
      const folders = readdirSync(path.join(ROOT, "src"), {
        withFileTypes: true,
      })
        .filter((e) => e.isDirectory() && !e.name.startsWith("_"))
        .map((e) => e.name).sort();
      assert.deepEqual(LAYERS.flat().sort(), folders);
      const diagram = layerDiagram();
      for (const folder of folders) {
        // A whole folder name: `lock/` is not the tail of `block/`.
        const named = diagram.match(new RegExp(`(^|\\s)${folder}/`, "gm"));
        assert.equal(named?.length, 1, folder);
      }
      assert.ok(diagram.startsWith("cli/"));
      assert.ok(diagram.indexOf("patch/") < diagram.indexOf("fs/"));
    },
  );

  it(
    "replaces only the marked block, and is stable",
    { timeout: 10_000 },
    () => {
      const text =
        "# Architecture\n\nbefore\n\n<!-- layers:begin -->\nold\n<!-- layers:end -->\n\nafter\n";
      const written = withDiagram(text)!;
      assert.ok(
        written.startsWith(
          "# Architecture\n\nbefore\n\n<!-- layers:begin -->\n",
        ),
      );
      assert.ok(written.endsWith("<!-- layers:end -->\n\nafter\n"));
      assert.ok(written.includes(layerDiagram()));
      assert.ok(!written.includes("old"));
      assert.equal(withDiagram(written), written);
      assert.equal(withDiagram("# no markers\n"), undefined);
    },
  );
});
