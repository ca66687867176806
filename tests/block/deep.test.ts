/**
 * Block anchors on deeply nested code answer promptly: resolution walks
 * down from the root one level per step and refuses a line more than
 * MAX_BLOCK_DEPTH levels deep (`NOT_A_BLOCK`, nothing written), where it
 * used to walk up through every parent, each found again from the root
 * (docs/safety.md "Bounded work").
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  MAX_BLOCK_DEPTH,
  resolveBlock,
  type SyntaxNode,
} from "../../src/block/resolve.ts";
import { PatchRefusedError } from "../../src/errors.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { at } from "./_files.ts";

const T = { timeout: 60_000 };
/** `a.b.b.b…`: every member expression of the chain starts at `a`. */
const CHAIN = "a" + ".b".repeat(5_000);

/** A chain of `depth` nodes that all start at line 1, column 0, the outermost ending on `lastRow`. */
function chain(depth: number, lastRow: number): SyntaxNode {
  const root: SyntaxNode = {
    type: "program",
    isError: false,
    startPosition: { row: 0, column: 0 },
    endPosition: { row: lastRow + 1, column: 0 },
    parent: null,
    children: [],
    namedChildren: [],
    descendantForPosition: () => null,
  };
  let parent = root;
  for (let i = 0; i < depth; i++) {
    const node: SyntaxNode = {
      type: i === 0 ? "expression_statement" : "member_expression",
      isError: false,
      startPosition: { row: 0, column: 0 },
      endPosition: i === 0
        ? { row: lastRow, column: 5 }
        : { row: 0, column: 9 },
      parent,
      children: [],
      namedChildren: [],
      descendantForPosition: () => null,
    };
    parent.children.push(node);
    parent = node;
  }
  // A sibling after the chain, so the statement does not span the whole root.
  root.children.push({
    ...root,
    type: "lexical_declaration",
    startPosition: { row: lastRow + 1, column: 0 },
    endPosition: { row: lastRow + 1, column: 10 },
    children: [],
  });
  return root;
}

describe("block anchors on deep nesting", () => {
  it("resolveBlock refuses a line past MAX_BLOCK_DEPTH levels", T, () => {
    const lines = ["a.b.b.b.b", "let y = 1;"];
    const deep = resolveBlock(chain(MAX_BLOCK_DEPTH + 500, 0), lines, 1);
    assert.equal(deep.kind, "none");
    assert.ok(deep.kind === "none" && deep.tooDeep);
    assert.match(
      deep.kind === "none" ? deep.reason : "",
      /more than 1000 syntax levels deep/,
    );
    // The outermost node opens a block: found at the first level down,
    // however deep the chain below it goes.
    const lines2 = ["a.b.b.b.b", "  .c;", "let y = 1;"];
    assert.deepEqual(
      resolveBlock(chain(MAX_BLOCK_DEPTH * 50, 1), lines2, 1),
      { kind: "block", start: 1, end: 2, node: "expression_statement" },
    );
  });

  async function withFile(
    text: string,
    body: (ws: ReturnType<typeof openWorkspace>, file: string) => Promise<void>,
  ): Promise<void> {
    const dir = await realpath(await mkdtemp(join(tmpdir(), "hashline-deep-")));
    try {
      await writeFile(join(dir, "deep.ts"), text);
      const ws = openWorkspace(dir, { stateDir: join(dir, ".state") });
      await ws.read("deep.ts");
      await body(ws, join(dir, "deep.ts"));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it(
    "a one-line chain 5,000 levels deep is NOT_A_BLOCK, nothing written",
    T,
    async () => {
      const text = `${CHAIN};\nlet y = 1;\n`;
      await withFile(text, async (ws, file) => {
        const error = await ws.patch(`@@ deep.ts\n= ${at(text, 1)}*\n~x;\n`)
          .then(() => assert.fail("expected a refusal"), (e) => e);
        assert.ok(error instanceof PatchRefusedError, String(error));
        assert.equal(error.problems[0].code, "NOT_A_BLOCK");
        assert.match(error.message, /more than 1000 syntax levels deep/);
        assert.match(error.message, /range \(START\.\.END\)/);
        assert.equal(await readFile(file, "utf8"), text);
      });
    },
  );

  it(
    "a chain 5,000 levels deep over two lines resolves as its statement",
    T,
    async () => {
      const text = `${CHAIN}\n  .c;\nlet y = 1;\n`;
      await withFile(text, async (ws, file) => {
        const result = await ws.patch(`@@ deep.ts\n= ${at(text, 1)}*\n~x;\n`, {
          dryRun: true,
        });
        assert.match(result.summary, /block 1–2/);
        assert.match(result.summary, /\(\+1 -2\)/);
        assert.equal(await readFile(file, "utf8"), text);
        // The next line opens no block; its nearest opener is named.
        const error = await ws.patch(`@@ deep.ts\n= ${at(text, 2)}*\n~x;\n`)
          .then(() => assert.fail("expected a refusal"), (e) => e);
        assert.equal(error.problems[0].code, "NOT_A_BLOCK");
        assert.match(
          error.message,
          /Nearest block openers: 1:[0-9a-f]{2}\* above/,
        );
      });
    },
  );
});
