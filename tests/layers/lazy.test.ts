/**
 * The one lazy loader: a module named relative to its caller loads on the
 * first call, is the same module a static import gives, and loads once.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import * as fnv from "../../src/hash/fnv.ts";
import { lazy } from "../../src/_internal/lazy.ts";
import { REPO_ROOT } from "../_spawn.ts";

describe("lazy", () => {
  it("loads a module relative to the caller, once, as the static import does", {
    timeout: 30_000,
  }, async () => {
    const load = lazy<typeof import("../../src/hash/fnv.ts")>(
      import.meta.url,
      "../../src/hash/fnv.ts",
    );
    const first = await load();
    assert.equal(first.lineHash32, fnv.lineHash32);
    assert.equal(load(), load());
  });

  it("rejects, naming the module, when it does not exist", {
    timeout: 30_000,
  }, async () => {
    const load = lazy(import.meta.url, "./no_such_module.ts");
    await assert.rejects(load(), /no_such_module/);
  });
});

/** Every `.ts` file under `dir`, relative to the repository. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith(".ts") ? [relative(REPO_ROOT, path)] : [];
  });
}

describe("dynamic imports in src/", () => {
  // `deno publish --dry-run` warns on an import() it cannot analyze, and
  // scripts/test.sh fails on that warning; this names the line sooner.
  it("name their module with a literal, except in the one lazy loader", {
    timeout: 30_000,
  }, () => {
    const found: string[] = [];
    for (const file of sources(join(REPO_ROOT, "src"))) {
      if (file === join("src", "_internal", "lazy.ts")) continue;
      const lines = readFileSync(join(REPO_ROOT, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
        for (const m of line.matchAll(/(?<!typeof )\bimport\(\s*(\S)?/g)) {
          if (m[1] !== '"' && m[1] !== "'" && m[1] !== undefined) {
            found.push(`${file}:${i + 1}: ${line.trim()}`);
          }
        }
      });
    }
    assert.deepEqual(found, [], "import() with a computed specifier");
  });
});
