import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SyntaxGate } from "../../src/check/gate.ts";
import { resolveBlock } from "../../src/block/resolve.ts";
import { splitLines } from "../../src/anchor/split.ts";

const gate = new SyntaxGate("warn", null);

/** Each line's block as `start-end`, or `-` when the line opens none. */
async function spans(path: string, text: string): Promise<string[]> {
  const source = await gate.structure(path, text);
  assert.equal(source.kind, "tree", JSON.stringify(source));
  if (source.kind !== "tree") return [];
  const { lines } = splitLines(text);
  return lines.map((_, i) => {
    const b = resolveBlock(source.root, lines, i + 1);
    return b.kind === "block" ? `${b.start}-${b.end}` : "-";
  });
}

const T = { timeout: 30_000 };

describe("block resolution per grammar", () => {
  it(
    "TypeScript: exported, documented, class, method, if, object",
    T,
    async () => {
      const text = [
        'import { x } from "y";', // 1
        "/**", // 2
        " * Doc.", // 3
        " */", // 4
        "export function f(a: number) {", // 5
        "  return a + 1;", // 6
        "}", // 7
        "@Component({", // 8
        '  selector: "x",', // 9
        "})", // 10
        "class C {", // 11
        "  @dec()", // 12
        "  m() {", // 13
        "    if (x) {", // 14
        "      return 1;", // 15
        "    } else {", // 16
        "      return 2;", // 17
        "    }", // 18
        "  }", // 19
        "}", // 20
        "const o = {", // 21
        "  a: 1,", // 22
        "  b: [", // 23
        "    2,", // 24
        "  ],", // 25
        "};", // 26
        "function g() {", // 27
        "} g();", // 28
      ].join("\n") + "\n";
      const got = await spans("a.ts", text);
      assert.deepEqual(got, [
        "-", // a one-line statement
        "2-4", // the doc comment is its own block
        "-",
        "-",
        "5-7", // export adds the whole statement
        "-",
        "-", // a closing brace
        "8-20", // the class decorator opens the class
        "-",
        "-",
        "-", // inside the decorated class: the decorator line opens it
        "-", // a method decorator is its own one-line node
        "13-19",
        "14-18",
        "-",
        "-", // `} else {`
        "-",
        "-",
        "-",
        "-",
        "21-26", // trailing `;` belongs to the declaration
        "-",
        "23-25", // a pair with its trailing `,`
        "-",
        "-",
        "-",
        "-", // code after the node on its last line
        "-",
      ]);
      const lines = splitLines(text).lines;
      const source = await gate.structure("a.ts", text);
      assert.equal(source.kind, "tree");
      if (source.kind !== "tree") return;
      const miss = resolveBlock(source.root, lines, 27);
      assert.equal(miss.kind, "none");
      assert.deepEqual(miss.kind === "none" && miss.range, {
        start: 27,
        end: 28,
      });
    },
  );

  it(
    "TSX and JavaScript: components and calls with object literals",
    T,
    async () => {
      const tsx = [
        'import React from "react";',
        "export const App = () => (",
        "  <div>",
        "    <span />",
        "  </div>",
        ");",
      ].join("\n");
      assert.deepEqual(await spans("app.tsx", tsx), [
        "-",
        "2-6",
        "3-5",
        "-",
        "-",
        "-",
      ]);
      const js = ["foo({", "  a: 1,", "});", "let y = 2;"].join("\n");
      assert.deepEqual(await spans("a.js", js), ["1-3", "-", "-", "-"]);
    },
  );

  it(
    "Python: the decorator line opens the decorated definition",
    T,
    async () => {
      const py = [
        "import os", // 1
        "", // 2
        "@app.route('/')", // 3
        "def index():", // 4
        "    return 1", // 5
        "", // 6
        "class K:", // 7
        "    @property", // 8
        "    def p(self):", // 9
        "        return 2", // 10
      ].join("\n") + "\n";
      assert.deepEqual(await spans("a.py", py), [
        "-",
        "-",
        "3-5",
        "4-5",
        "-",
        "-",
        "7-10",
        "8-10",
        "9-10",
        "-",
      ]);
    },
  );

  it("JSON: pairs are blocks, the root object is not", T, async () => {
    const json = [
      "{",
      '  "a": {',
      '    "b": 1',
      "  },",
      '  "c": [',
      "    1",
      "  ]",
      "}",
    ].join("\n");
    assert.deepEqual(await spans("a.json", json), [
      "-",
      "2-4",
      "-",
      "-",
      "5-7",
      "-",
      "-",
      "-",
    ]);
  });

  it(
    "Markdown: sections to the next heading of the same or higher level",
    T,
    async () => {
      const md = [
        "# Title", // 1
        "intro", // 2
        "## A", // 3
        "```sh", // 4
        "# not a heading", // 5
        "```", // 6
        "### A.1", // 7
        "text", // 8
        "## B", // 9
        "end", // 10
      ].join("\n");
      assert.deepEqual(await spans("README.md", md), [
        "1-10",
        "-",
        "3-8",
        "-",
        "-",
        "-",
        "7-8",
        "-",
        "9-10",
        "-",
      ]);
    },
  );

  it("a file with no grammar has no structure", T, async () => {
    const source = await gate.structure("notes.txt", "a\nb\n");
    assert.equal(source.kind, "none");
    assert.match(
      source.kind === "none" ? source.reason : "",
      /no grammar covers/,
    );
  });
});
