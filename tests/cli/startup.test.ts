import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const STATIC = /^\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"/gm;
const DYNAMIC = /import\(\s*"([^"]+)"\s*\)/g;
// An import() with a literal specifier, which Deno follows when it builds the
// module graph before running (a `typeof import` is a type and is not).
const LITERAL_IMPORT = /(?<!typeof\s+)import\(\s*"([^"]+)"\s*\)/g;

/**
 * Every module a file can load, statically or with import(), as src-relative
 * paths or bare specifiers; with `dynamic` "deno", only the import() calls
 * Deno follows ahead of time (literal specifiers).
 */
async function graph(
  entry: string,
  dynamic: boolean | "deno",
): Promise<Set<string>> {
  const seen = new Set<string>();
  const todo = [resolve(SRC, entry)];
  while (todo.length > 0) {
    const file = todo.pop()!;
    const key = relative(SRC, file);
    if (seen.has(key)) continue;
    seen.add(key);
    // Type-only imports and re-exports load nothing at run time.
    const text = (await readFile(file, "utf8")).replace(
      /^\s*(?:import|export) type\s[^;]*;/gm,
      "",
    );
    const specs = [...text.matchAll(STATIC)].map((m) => m[1]);
    if (dynamic) {
      const pattern = dynamic === "deno" ? LITERAL_IMPORT : DYNAMIC;
      specs.push(...[...text.matchAll(pattern)].map((m) => m[1]));
    }
    for (const spec of specs) {
      if (spec.startsWith(".")) todo.push(join(dirname(file), spec));
      else seen.add(spec);
    }
  }
  return seen;
}

describe("hashline start-up: each command family loads only its own modules", () => {
  it("the entry module loads no command family until a command runs", async () => {
    const loaded = [...await graph("cli/main.ts", false)];
    assert.deepEqual(
      loaded.filter((m) => /cli\/_(files|store|serve)\.ts$/.test(m)),
      [],
    );
    assert.deepEqual(
      loaded.filter((m) => !m.startsWith("node:") && !m.endsWith(".ts")),
      [],
    );
  });

  it("read, patch and write load neither the store, Hono, the MCP SDK nor postgres", async () => {
    const loaded = [...await graph("cli/_files.ts", true)];
    assert.ok(
      loaded.includes("workspace/workspace.ts"),
      "the graph walk found the workspace",
    );
    const heavy = loaded.filter((m) =>
      /^(hono|@hono\/|@modelcontextprotocol\/|postgres|npm:)/.test(m) ||
      /^serve\//.test(m) ||
      (/^store\//.test(m) && m !== "store/_utf8.ts")
    );
    assert.deepEqual(heavy, []);
  });

  it("Deno builds the graph of no command family before a command runs", async () => {
    const built = [...await graph("cli/main.ts", "deno")];
    assert.deepEqual(
      built.filter((m) => /cli\/_(files|store|serve|history)\.ts$/.test(m)),
      [],
    );
  });

  it("a read builds no graph of patches, the history, streamed reads, recovery, locks or checks", async () => {
    const built = await graph("cli/_files.ts", "deno");
    assert.ok(built.has("workspace/_read.ts"), "the walk found the read");
    const later = [
      "workspace/_patch.ts",
      "workspace/_write.ts",
      "workspace/_history.ts",
      "workspace/_undo.ts",
      "stream/read.ts",
      "hash/wasm.ts",
      "commit/recover.ts",
      "lock/lock.ts",
      "lock/holder.ts",
      "check/checker.ts",
      "history/log.ts",
    ];
    assert.deepEqual(later.filter((m) => built.has(m)), []);
  });

  it("the store commands load no server, MCP SDK or postgres", async () => {
    const loaded = [...await graph("cli/_store.ts", true)];
    assert.ok(loaded.includes("store/file_store.ts"));
    const heavy = loaded.filter((m) =>
      /^(hono|@hono\/|@modelcontextprotocol\/|postgres)/.test(m) ||
      /^serve\//.test(m) ||
      m === "store/postgres_store.ts" || m === "store/_pg_backend.ts"
    );
    assert.deepEqual(heavy, []);
  });
});
