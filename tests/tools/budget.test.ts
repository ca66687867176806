// The tool definitions are sent with every request, so they are budgeted
// (docs/mcp.md, "What the tools cost a model"). `deno task bench:tools` prints the same figures beside the
// reference MCP filesystem server.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  BUDGETS,
  measure,
  registryFor,
  tokens,
  toolTokens,
} from "../../bench/tools_tokens.ts";

describe("tool definition budgets (o200k tokens of { name, description, input_schema })", () => {
  for (const editFormat of ["hashline", "str_replace"] as const) {
    const m = measure(editFormat);
    it(`${editFormat}: edit_file ≤ ${BUDGETS.editFile} (is ${m.perTool.edit_file})`, () => {
      assert.ok(m.perTool.edit_file <= BUDGETS.editFile, JSON.stringify(m));
    });
    it(`${editFormat}: the files set ≤ ${BUDGETS.files} (is ${m.perSet.files})`, () => {
      assert.deepEqual(
        registryFor(editFormat, ["files"]).tools.map((t) => t.name),
        [
          "read_file",
          "edit_file",
          "write_file",
          "list_files",
          "search_files",
        ],
      );
      assert.ok(m.perSet.files <= BUDGETS.files, JSON.stringify(m));
    });
    it(`${editFormat}: the default set ≤ ${BUDGETS.defaultSet} (is ${m.defaultSet})`, () => {
      const served = registryFor(editFormat);
      assert.deepEqual(served.toolSets, ["files", "store"]);
      assert.equal(served.tools.length, 10);
      assert.equal(m.defaultSet, m.perSet.files + m.perSet.store);
      assert.ok(m.defaultSet <= BUDGETS.defaultSet, JSON.stringify(m));
    });
    it(`${editFormat}: the default system prompt ≤ ${BUDGETS.prompt} (is ${m.prompt})`, () => {
      assert.ok(m.prompt <= BUDGETS.prompt, JSON.stringify(m));
    });
  }

  it("counts the JSON a model API is sent", () => {
    const tool = {
      name: "t",
      description: "d",
      inputSchema: { type: "object" },
    };
    assert.equal(
      toolTokens(tool),
      tokens('{"name":"t","description":"d","input_schema":{"type":"object"}}'),
    );
  });
});
