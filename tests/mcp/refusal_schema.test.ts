import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { withRefusal } from "../../src/mcp/_refusal_schema.ts";

describe("withRefusal: a tool's output schema over MCP", () => {
  it(
    "is an object schema of the result or a refusal, references kept at the root",
    {
      timeout: 5_000,
    },
    () => {
      const own = {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { item: { $ref: "#/$defs/item" } },
        required: ["item"],
        $defs: { item: { type: "string" } },
      };
      const listed = withRefusal(own);
      assert.equal(listed.type, "object");
      assert.equal(listed.$schema, own.$schema);
      assert.deepEqual(listed.$defs, own.$defs);
      const [result, refusal] = listed.anyOf as Record<string, unknown>[];
      assert.deepEqual(result, {
        type: "object",
        properties: own.properties,
        required: ["item"],
      });
      assert.deepEqual(refusal.required, ["ok", "error"]);
      const error =
        (refusal.properties as Record<string, Record<string, unknown>>)
          .error;
      const codes =
        (error.properties as Record<string, { enum: string[] }>).code
          .enum;
      for (
        const code of ["NOT_READ", "STALE_ANCHOR", "BAD_INPUT", "MOVED_ON"]
      ) {
        assert.ok(codes.includes(code), code);
      }
    },
  );
});
