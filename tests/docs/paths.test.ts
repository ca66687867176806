// Maps of the code that fail when stale: a `src/<layer>/…` path named in any
// Markdown file of the repository, or in a comment of its TypeScript, names a
// file or folder that exists; and no text cites a design document the
// repository does not hold (comments cite `docs/…` or a test instead).
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { REPO_ROOT } from "../_spawn.ts";

const DEADLINE = { timeout: 60_000 };

/** Folders that are not the repository's own text: installs, VCS, state, builds. */
const SKIPPED = new Set(["node_modules", "dist"]);

/** Every file of the repository (dot folders, installs and builds left out), relative to its root. */
function repositoryFiles(dir = REPO_ROOT): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") && entry.isDirectory()) continue;
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...repositoryFiles(path));
    else if (entry.isFile()) out.push(relative(REPO_ROOT, path));
  }
  return out;
}

/**
 * The folders of `src/`. A path under one of them names this repository's
 * code; `src/app.ts` or `src/a.ts` in an example names a user's project.
 */
const LAYERS: ReadonlySet<string> = new Set(
  readdirSync(join(REPO_ROOT, "src"), { withFileTypes: true })
    .filter((e) => e.isDirectory()).map((e) => e.name),
);

/** The comment text of a TypeScript line, or "" (block-comment lines and trailing `//`). */
function commentOf(line: string): string {
  const t = line.trimStart();
  if (t.startsWith("//") || t.startsWith("*") || t.startsWith("/*")) return t;
  const at = line.indexOf(" // ");
  return at < 0 ? "" : line.slice(at);
}

/** The `src/<layer>/…` paths a piece of text names, without trailing punctuation. */
function namedSourcePaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![\w./@-])src\/([\w-]+)(\/[\w./-]*)?/g)) {
    if (!LAYERS.has(m[1])) continue;
    out.push(m[0].replace(/[.]+$/, ""));
  }
  return out;
}

function exists(path: string): boolean {
  try {
    statSync(join(REPO_ROOT, path));
    return true;
  } catch {
    return false;
  }
}

/** The word that names the missing document, assembled so this file does not name it. */
const MISSING_DOC = ["DES", "IGN"].join("");

describe("paths named in documents and comments", () => {
  const files = repositoryFiles();

  it(
    "are recognised: layer paths count, a user's example paths do not",
    DEADLINE,
    () => {
      assert.deepEqual(
        namedSourcePaths(
          "see `src/stream/patch.ts`, src/history/log.ts. and src/app.ts; bench/src/x.ts",
        ),
        ["src/stream/patch.ts", "src/history/log.ts"],
      );
      assert.deepEqual(namedSourcePaths("the folder src/http/middleware/"), [
        "src/http/middleware/",
      ]);
    },
  );

  it("exist, in every Markdown file", DEADLINE, () => {
    const stale: string[] = [];
    for (const file of files.filter((f) => f.endsWith(".md"))) {
      const lines = readFileSync(join(REPO_ROOT, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        for (const p of namedSourcePaths(line)) {
          if (!exists(p)) stale.push(`${file}:${i + 1}: ${p}`);
        }
      });
    }
    assert.deepEqual(stale, [], "named paths that do not exist");
  });

  it("exist, in every comment of the TypeScript", DEADLINE, () => {
    const stale: string[] = [];
    for (const file of files.filter((f) => f.endsWith(".ts"))) {
      const lines = readFileSync(join(REPO_ROOT, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        for (const p of namedSourcePaths(commentOf(line))) {
          if (!exists(p)) stale.push(`${file}:${i + 1}: ${p}`);
        }
      });
    }
    assert.deepEqual(stale, [], "named paths that do not exist");
  });
});

describe("documents the repository does not hold", () => {
  it(
    "are never cited: comments and docs point at docs/… or a test",
    DEADLINE,
    () => {
      const word = new RegExp(`\\b${MISSING_DOC}\\b`);
      const cites: string[] = [];
      for (const file of repositoryFiles()) {
        const bytes = readFileSync(join(REPO_ROOT, file));
        if (bytes.includes(0)) continue;
        const lines = new TextDecoder().decode(bytes).split("\n");
        lines.forEach((line, i) => {
          if (word.test(line)) cites.push(`${file}:${i + 1}`);
        });
      }
      assert.deepEqual(cites, [], `lines citing ${MISSING_DOC}`);
    },
  );
});
