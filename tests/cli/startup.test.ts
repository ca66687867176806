import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { builtBy, loadedBy, readGraph } from "../../scripts/check_layers.ts";

const FAMILIES = /^src\/cli\/_(files|store|serve|history)\.ts$/;
const roots = ["src/cli/main.ts", "src/cli/_files.ts", "src/cli/_store.ts"];
let graph: ReturnType<typeof readGraph> | undefined;
const edges = (): ReturnType<typeof readGraph> => graph ??= readGraph(roots);

describe("hashline start-up: each command family loads only its own modules", () => {
  it("the entry module loads no command family until a command runs", {
    timeout: 60_000,
  }, () => {
    const loaded = [...loadedBy(edges(), "src/cli/main.ts")];
    assert.ok(loaded.includes("src/cli/_args.ts"), "the walk found the parser");
    assert.deepEqual(loaded.filter((m) => FAMILIES.test(m)), []);
    assert.deepEqual(loaded.filter((m) => m.startsWith("npm:")), []);
  });

  it(
    "read, patch and write load neither the store, Hono, the MCP SDK nor postgres",
    {
      timeout: 60_000,
    },
    () => {
      const loaded = [...builtBy(edges(), "src/cli/_files.ts")];
      assert.ok(
        loaded.includes("src/workspace/workspace.ts"),
        "the graph walk found the workspace",
      );
      const heavy = loaded.filter((m) =>
        m.startsWith("npm:") || /^src\/(http|mcp)\//.test(m) ||
        (/^src\/store\//.test(m) && m !== "src/store/_utf8.ts")
      );
      assert.deepEqual(heavy, []);
    },
  );

  it("Deno builds the graph of no command family before a command runs", {
    timeout: 60_000,
  }, () => {
    const built = [...builtBy(edges(), "src/cli/main.ts")];
    assert.deepEqual(built.filter((m) => FAMILIES.test(m)), []);
  });

  it(
    "a read builds no graph of patches, the history, streamed reads, recovery, locks or checks",
    {
      timeout: 60_000,
    },
    () => {
      const built = builtBy(edges(), "src/cli/_files.ts");
      assert.ok(built.has("src/read/read.ts"), "the walk found the read");
      const later = [
        "src/workspace/_patch.ts",
        "src/workspace/_write.ts",
        "src/workspace/_history.ts",
        "src/workspace/_undo.ts",
        "src/stream/read.ts",
        "src/hash/wasm.ts",
        "src/commit/recover.ts",
        "src/lock/lock.ts",
        "src/lock/holder.ts",
        "src/check/checker.ts",
        "src/history/log.ts",
      ];
      assert.deepEqual(later.filter((m) => built.has(m)), []);
    },
  );

  it("the store commands load no server, MCP SDK or postgres", {
    timeout: 60_000,
  }, () => {
    const loaded = [...builtBy(edges(), "src/cli/_store.ts")];
    assert.ok(loaded.includes("src/store/file_store.ts"));
    const heavy = loaded.filter((m) =>
      /^npm:(hono|@hono\/|@modelcontextprotocol\/|postgres)/.test(m) ||
      /^src\/(http|mcp)\//.test(m) ||
      m === "src/store/postgres_store.ts" || m === "src/store/_pg_backend.ts"
    );
    assert.deepEqual(heavy, []);
  });
});
