import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createMemoryStore } from "../../src/store/memory_store.ts";
import {
  checkToolSets,
  createToolRegistry,
  type ToolSetName,
} from "../../src/tools/mod.ts";

const FILES = [
  "read_file",
  "edit_file",
  "write_file",
  "list_files",
  "search_files",
];
const STORE = [
  "source_put",
  "source_read",
  "source_edit",
  "source_patch",
  "source_export",
];

const HISTORY = ["edit_history", "undo_edit"];

function registry(tools?: readonly ToolSetName[]) {
  return createToolRegistry({
    // Listing tools never opens the workspace.
    workspace: () => Promise.reject(new Error("not opened")),
    store: createMemoryStore(),
    tools,
  });
}

describe("tool sets", () => {
  const cases: [ToolSetName[] | undefined, string[], ToolSetName[]][] = [
    [undefined, [...FILES, ...STORE], ["files", "store"]],
    [["files"], FILES, ["files"]],
    [["store"], STORE, ["store"]],
    [["store", "files", "store"], [...FILES, ...STORE], ["files", "store"]],
    [["history"], HISTORY, ["history"]],
    [["files", "store", "history"], [...FILES, ...STORE, ...HISTORY], [
      "files",
      "store",
      "history",
    ]],
  ];
  for (const [tools, names, sets] of cases) {
    it(`tools: ${JSON.stringify(tools)} offers ${names.length} tools`, () => {
      const r = registry(tools);
      assert.deepEqual(r.tools.map((t) => t.name), names);
      assert.deepEqual(r.toolSets, sets);
    });
  }

  it("the system prompt teaches only the sets offered", () => {
    const files = registry(["files"]).systemPrompt;
    assert.match(files, /LINE:HH/);
    assert.doesNotMatch(files, /source_put/);
    const store = registry(["store"]).systemPrompt;
    assert.match(store, /source_put/);
    assert.doesNotMatch(store, /LINE:HH/);
  });

  it("a set without its backing offers nothing", () => {
    const r = createToolRegistry({
      store: createMemoryStore(),
      tools: ["files"],
    });
    assert.deepEqual(r.tools, []);
    assert.equal(r.systemPrompt, "");
  });

  const bad: [unknown, RegExp][] = [
    [
      ["files", "shell"],
      /Unknown tool set "shell": the tool sets are "files", "store", "history"/,
    ],
    [["Files"], /Unknown tool set "Files"/],
    [[], /tools must list one or more tool sets/],
    ["files,store", /tools must list one or more tool sets/],
    [null, /tools must list one or more tool sets/],
  ];
  for (const [tools, message] of bad) {
    it(`tools: ${JSON.stringify(tools)} is a TypeError`, () => {
      assert.throws(
        () => registry(tools as ToolSetName[]),
        (e: Error) => e instanceof TypeError && message.test(e.message),
      );
      assert.throws(() => checkToolSets(tools), TypeError);
    });
  }
});
