import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import { readPackageFile } from "../../src/_runtime/packages.ts";

const require = createRequire(import.meta.url);

describe("readPackageFile", () => {
  it(
    "reads a file of an installed package, as Node's resolution finds it",
    { timeout: 30_000 },
    async () => {
      const path = require.resolve(
        "tree-sitter-json/tree-sitter-json.wasm",
      );
      const bytes = await readPackageFile(
        "tree-sitter-json/tree-sitter-json.wasm",
      );
      assert.ok(bytes);
      assert.deepEqual(bytes, new Uint8Array(await readFile(path)));
    },
  );

  it(
    "reads a package's package.json even when its exports leave it out",
    { timeout: 30_000 },
    async () => {
      const bytes = await readPackageFile("web-tree-sitter/package.json");
      assert.ok(bytes);
      const manifest = JSON.parse(new TextDecoder().decode(bytes));
      assert.equal(manifest.name, "web-tree-sitter");
      assert.equal(typeof manifest.version, "string");
    },
  );

  it(
    "answers null for a package that is not installed, a missing file, or a path that climbs out",
    { timeout: 30_000 },
    async () => {
      for (
        const specifier of [
          "surely-not-installed-pkg/x.wasm",
          "tree-sitter-json/no-such-file.wasm",
          "tree-sitter-json/../zod/package.json",
          "tree-sitter-json/./package.json",
        ]
      ) {
        assert.equal(await readPackageFile(specifier), null, specifier);
      }
    },
  );
});
