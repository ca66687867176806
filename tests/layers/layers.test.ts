/**
 * The module graph as users meet it: the core subpaths load no Hono and no
 * `node:*` module, the edge entry no `node:*` module, and the layer check
 * (scripts/check_layers.ts) catches cycles and imports up the layers.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import {
  importCycles,
  type ImportEdge,
  layerViolations,
  loadedBy,
  readGraph,
  ROOT,
  sourceFiles,
} from "../../scripts/check_layers.ts";

const exports: Record<string, string> = JSON.parse(
  readFileSync(path.join(ROOT, "deno.json"), "utf8"),
).exports;
/** The entry of a subpath, as deno.json maps it (`./src/hash/mod.ts` → `src/hash/mod.ts`). */
const entry = (subpath: string): string => {
  assert.ok(exports[subpath], `deno.json exports ${subpath}`);
  return exports[subpath].replace(/^\.\//, "");
};

const core: [string, string, string[]][] = [
  ["./hash", entry("./hash"), []],
  ["anchor", "src/anchor/mod.ts", []],
  ["./patch", entry("./patch"), ["npm:zod"]],
];
const edge = entry("./edge");
const graph = readGraph([...core.map(([, file]) => file), edge]);

const outside = (file: string): string[] =>
  [...loadedBy(graph, file)].filter((m) => !m.startsWith("src/")).sort();

describe("what importing a subpath loads", () => {
  for (const [name, file, packages] of core) {
    const only = packages.length > 0
      ? `only ${packages.join(", ")}`
      : "no package at all";
    it(
      `${name} loads no Hono and no node:* module (${only})`,
      () => {
        assert.ok(loadedBy(graph, file).size > 1, `${file} has imports`);
        assert.deepEqual(outside(file), packages);
      },
    );
  }

  it("./edge loads no node:* module (only Hono and zod)", () => {
    const loaded = outside(edge);
    assert.deepEqual(loaded.filter((m) => m.startsWith("node:")), []);
    assert.deepEqual(loaded, ["npm:hono", "npm:zod"]);
  });

  it("counts type-only and dynamic imports as not loaded", () => {
    const edges: ImportEdge[] = [
      { from: "src/a/x.ts", to: "src/a/y.ts", typeOnly: true, dynamic: false },
      { from: "src/a/x.ts", to: "node:fs", typeOnly: false, dynamic: true },
      { from: "src/a/x.ts", to: "src/a/z.ts", typeOnly: false, dynamic: false },
      { from: "src/a/z.ts", to: "npm:hono", typeOnly: false, dynamic: false },
    ];
    assert.deepEqual(
      [...loadedBy(edges, "src/a/x.ts")].sort(),
      ["npm:hono", "src/a/x.ts", "src/a/z.ts"],
    );
  });
});

const edge_ = (from: string, to: string, typeOnly = false): ImportEdge => ({
  from,
  to,
  typeOnly,
  dynamic: false,
});

describe("the layer check", () => {
  it("passes on src/ as it is", () => {
    const all = readGraph(sourceFiles());
    assert.deepEqual(layerViolations(all).map((v) => v.message), []);
    assert.deepEqual(importCycles(all), []);
  });

  it("reports an import up the layers, types included, naming both ends", () => {
    const found = layerViolations([
      edge_("src/anchor/anchor.ts", "src/patch/types.ts", true),
      edge_("src/patch/apply.ts", "src/anchor/split.ts"),
      edge_("src/tools/registry.ts", "src/http/app.ts"),
      edge_("src/http/app.ts", "src/mcp/http.ts"),
      edge_("src/adapters/ai.ts", "src/tools/registry.ts"),
    ]);
    assert.deepEqual(found.map((v) => v.edge.from), [
      "src/anchor/anchor.ts",
      "src/tools/registry.ts",
    ]);
    assert.match(
      found[0].message,
      /^src\/anchor\/anchor\.ts → src\/patch\/types\.ts \(types\): anchor\/ may not import patch\//,
    );
  });

  it("lets anyone import _runtime/, _internal/ and errors.ts, which import only each other", () => {
    const found = layerViolations([
      edge_("src/hash/mod.ts", "src/_runtime/config.ts"),
      edge_("src/anchor/split.ts", "src/errors.ts"),
      edge_("src/_runtime/env.ts", "src/_runtime/config.ts"),
      edge_("src/_internal/errno.ts", "src/errors.ts"),
      edge_("src/_runtime/serve.ts", "src/http/app.ts"),
      edge_("src/errors.ts", "src/patch/types.ts", true),
    ]);
    assert.deepEqual(found.map((v) => v.edge.from), [
      "src/_runtime/serve.ts",
      "src/errors.ts",
    ]);
  });

  it("reports modules in no layer and imports that leave src/", () => {
    const found = layerViolations([
      edge_("src/serve/tools.ts", "src/tools/mod.ts"),
      edge_("src/cli/main.ts", "deno.json"),
    ]);
    assert.equal(found.length, 2);
    assert.match(found[0].message, /src\/serve\/tools\.ts is in no layer/);
    assert.match(found[1].message, /imports a file outside src\//);
  });

  it("finds every import cycle, through type-only imports too, and nothing else", () => {
    const cycles = importCycles([
      edge_("src/tools/tools.ts", "src/tools/_tool_defs.ts"),
      edge_("src/tools/_tool_defs.ts", "src/tools/tools.ts", true),
      edge_("src/patch/a.ts", "src/patch/b.ts"),
      edge_("src/patch/b.ts", "src/patch/c.ts"),
      edge_("src/patch/c.ts", "src/patch/a.ts"),
      edge_("src/patch/c.ts", "src/anchor/split.ts"),
      edge_("src/hash/self.ts", "src/hash/self.ts"),
      edge_("src/anchor/split.ts", "src/hash/fnv.ts"),
    ]);
    assert.deepEqual(cycles.sort(), [
      ["src/hash/self.ts"],
      ["src/patch/a.ts", "src/patch/b.ts", "src/patch/c.ts"],
      ["src/tools/_tool_defs.ts", "src/tools/tools.ts"],
    ]);
  });
});
