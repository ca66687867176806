import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { REPO_ROOT } from "../_spawn.ts";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith(".ts")
      ? [join(dir, e.name)]
      : []
  );
}

// A declaration file that imports from _runtime/fs.ts pulls in its
// `export * from "node:fs/promises"`, which a consumer without @types/node
// cannot type-check (the slow npm consumer test shows it; this names the line).
describe("types at the runtime boundary", () => {
  it("handle and status types come from _runtime/file_handle.ts, never from _runtime/fs.ts", () => {
    const offenders: string[] = [];
    for (const file of sources(join(REPO_ROOT, "src"))) {
      const text = readFileSync(file, "utf8");
      for (
        const m of text.matchAll(
          /import\s+(type\s+)?\{([^}]*)\}\s+from\s+"[./]*_runtime\/fs\.ts"/g,
        )
      ) {
        const names = m[2].split(",").map((n) => n.trim()).filter((n) =>
          /^(type\s+)?(FileHandle|FileStatus)\b/.test(n) || m[1] !== undefined
        );
        if (names.some((n) => /\b(FileHandle|FileStatus)\b/.test(n))) {
          offenders.push(
            `${relative(REPO_ROOT, file)}: import { ${
              names.join(", ")
            } } from "../_runtime/file_handle.ts" instead`,
          );
        }
      }
    }
    assert.deepEqual(offenders, []);
  });
});
