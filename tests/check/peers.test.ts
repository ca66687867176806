import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { GRAMMARS } from "../../src/check/mod.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

describe("the grammars stay out of the core install", () => {
  it("web-tree-sitter and every grammar package are optional peers, kept as dev dependencies", async () => {
    const pkg = JSON.parse(await readFile(join(REPO, "package.json"), "utf8"));
    const names = new Set([
      "web-tree-sitter",
      ...Object.values(GRAMMARS).map((g) => g.package),
    ]);
    for (const name of names) {
      assert.equal(pkg.dependencies[name], undefined, name);
      assert.ok(pkg.peerDependencies[name], name);
      assert.deepEqual(
        pkg.peerDependenciesMeta[name],
        { optional: true },
        name,
      );
      assert.equal(pkg.devDependencies[name], pkg.peerDependencies[name], name);
    }
  });
});
