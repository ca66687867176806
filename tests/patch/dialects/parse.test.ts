import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parsePatch } from "../../../src/patch/parse.ts";
import { detectDialect } from "../../../src/patch/dialects/detect.ts";
import { parseApplyPatch } from "../../../src/patch/dialects/apply_patch.ts";
import { parseUnifiedDiff } from "../../../src/patch/dialects/unified_diff.ts";

function syntaxErrorAt(line: number, what?: RegExp): (e: unknown) => boolean {
  return (e) =>
    e instanceof SyntaxError &&
    new RegExp(`\\bline ${line}\\b`).test(e.message) &&
    (what === undefined || what.test(e.message));
}

describe("dialects: told by the first line", () => {
  const cases: [string, string, string | null][] = [
    ["apply_patch", "*** Begin Patch\n", "apply_patch"],
    ["apply_patch after blank lines", "\n\n*** Begin Patch\n", "apply_patch"],
    ["git diff", "diff --git a/x b/x\n", "unified_diff"],
    ["plain unified diff", "--- a/x\n+++ b/x\n", "unified_diff"],
    ["hashline text", "@@ x\n- 1:aa\n", null],
    ["a later diff line decides nothing", "@@ x\n--- a/x\n", null],
    ["JSON", '{"files":[]}', null],
  ];
  for (const [name, text, want] of cases) {
    it(`${name} → ${want}`, { timeout: 10_000 }, () => {
      assert.equal(detectDialect(text), want);
    });
  }

  it("parsePatch answers { files: [], dialect } and takes that value back", {
    timeout: 10_000,
  }, () => {
    const text = "*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\n";
    const parsed = parsePatch(text);
    assert.deepEqual(parsed.files, []);
    assert.equal(parsed.dialect?.name, "apply_patch");
    assert.deepEqual(parsePatch(parsed), parsed);
    assert.deepEqual(parsePatch(new TextEncoder().encode(text)), parsed);
  });

  it("a Markdown fence around a diff is taken off, line numbers kept", {
    timeout: 10_000,
  }, () => {
    const fenced = "```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```\n";
    const parsed = parsePatch(fenced);
    assert.equal(parsed.dialect?.name, "unified_diff");
    assert.equal(parsed.dialect?.files[0].hunks[0].line, 4);
    assert.throws(
      () => parsePatch("```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n?a\n```"),
      syntaxErrorAt(5),
    );
  });
});

describe("apply_patch parser", () => {
  it("reads Add, Update with @@ context and End of File, Delete, Move to", {
    timeout: 10_000,
  }, () => {
    const p = parseApplyPatch([
      "*** Begin Patch",
      "*** Add File: docs/new.md",
      "+# New",
      "+",
      "*** Update File: src/a.py",
      "@@ def f():",
      "     x = 1",
      "-    return x",
      "+    return x + 1",
      "@@",
      " tail",
      "+end",
      "*** End of File",
      "*** Delete File: old.txt",
      "*** Update File: b.txt",
      "*** Move to: c.txt",
      "@@",
      "-b",
      "+c",
      "*** End Patch",
    ].join("\n"));
    assert.equal(p.name, "apply_patch");
    assert.deepEqual(p.files.map((f) => [f.kind, f.path, f.moveTo]), [
      ["add", "docs/new.md", undefined],
      ["update", "src/a.py", undefined],
      ["delete", "old.txt", undefined],
      ["update", "b.txt", "c.txt"],
    ]);
    assert.deepEqual(p.files[0].lines, ["# New", ""]);
    const [h1, h2] = p.files[1].hunks;
    assert.equal(h1.header, "def f():");
    assert.deepEqual(h1.rows, [
      { kind: " ", text: "    x = 1" },
      { kind: "-", text: "    return x" },
      { kind: "+", text: "    return x + 1" },
    ]);
    assert.equal(h2.atEnd, true);
    assert.equal(h2.header, undefined);
  });

  it("the first chunk may leave out its @@ line; CRLF is read as LF", {
    timeout: 10_000,
  }, () => {
    const p = parseApplyPatch(
      "*** Begin Patch\r\n*** Update File: a\r\n x\r\n-y\r\n*** End Patch\r\n",
    );
    assert.deepEqual(p.files[0].hunks[0].rows, [
      { kind: " ", text: "x" },
      { kind: "-", text: "y" },
    ]);
  });

  const bad: [string, string, number, RegExp][] = [
    ["no End Patch", "*** Begin Patch\n*** Delete File: a\n", 3, /End Patch/],
    [
      "an unknown row",
      "*** Begin Patch\n*** Update File: a\n@@\n?x\n*** End Patch",
      4,
      /" ", "-" or "\+" row/,
    ],
    [
      "an update without chunks",
      "*** Begin Patch\n*** Update File: a\n*** End Patch",
      3,
      /"@@" chunk/,
    ],
    [
      "an empty @@ chunk",
      "*** Begin Patch\n*** Update File: a\n@@\n@@\n-x\n*** End Patch",
      4,
      /rows after/,
    ],
    [
      "a file line without a path",
      "*** Begin Patch\n*** Delete File: \n*** End Patch",
      2,
      /a path/,
    ],
    [
      "text after End Patch",
      "*** Begin Patch\n*** Delete File: a\n*** End Patch\nmore",
      4,
      /nothing after/,
    ],
    ["no files", "*** Begin Patch\n*** End Patch", 2, /Add File/],
    [
      "a stray line between files",
      "*** Begin Patch\n*** Delete File: a\nhello\n*** End Patch",
      3,
      /Update File: PATH/,
    ],
  ];
  for (const [name, text, line, what] of bad) {
    it(
      `${name} is a SyntaxError naming line ${line}`,
      { timeout: 10_000 },
      () => {
        assert.throws(() => parsePatch(text), syntaxErrorAt(line, what));
      },
    );
  }
});

describe("unified diff parser", () => {
  it(
    "reads git diff headers, several files, renames, creations and deletions",
    { timeout: 10_000 },
    () => {
      const d = parseUnifiedDiff([
        "diff --git a/src/a.ts b/src/a.ts",
        "index 3b18e51..a9c4f2e 100644",
        "--- a/src/a.ts",
        "+++ b/src/a.ts",
        "@@ -1,3 +1,3 @@ export function f() {",
        " one",
        "-two",
        "+TWO",
        " three",
        "@@ -10,2 +10,2 @@",
        "-last",
        "\\ No newline at end of file",
        "+LAST",
        "\\ No newline at end of file",
        " ",
        "diff --git a/new.txt b/new.txt",
        "new file mode 100644",
        "index 0000000..e69de29",
        "--- /dev/null",
        "+++ b/new.txt",
        "@@ -0,0 +1,2 @@",
        "+hello",
        "+world",
        "diff --git a/gone.txt b/gone.txt",
        "deleted file mode 100644",
        "index e69de29..0000000",
        "--- a/gone.txt",
        "+++ /dev/null",
        "@@ -1 +0,0 @@",
        "-bye",
        "diff --git a/old name.txt b/new name.txt",
        "similarity index 90%",
        "rename from old name.txt",
        "rename to new name.txt",
        "diff --git a/empty b/empty",
        "new file mode 100644",
        "index 0000000..e69de29",
      ].join("\n"));
      assert.deepEqual(
        d.files.map((f) => [f.kind, f.path, f.moveTo]),
        [
          ["update", "src/a.ts", undefined],
          ["add", "new.txt", undefined],
          ["delete", "gone.txt", undefined],
          ["update", "old name.txt", "new name.txt"],
          ["add", "empty", undefined],
        ],
      );
      const [h1, h2] = d.files[0].hunks;
      assert.equal(h1.oldStart, 1);
      assert.deepEqual(h2.rows, [
        { kind: "-", text: "last" },
        { kind: "+", text: "LAST" },
        { kind: " ", text: "" },
      ]);
      assert.deepEqual(d.files[1].lines, ["hello", "world"]);
      assert.deepEqual(d.files[2].hunks[0].rows, [{ kind: "-", text: "bye" }]);
      assert.deepEqual(d.files[4].lines, []);
    },
  );

  it("paths without a/ and b/, with a timestamp, or C-quoted", {
    timeout: 10_000,
  }, () => {
    const plain = parseUnifiedDiff(
      "--- x.txt\t2024-01-01 10:00:00\n+++ x.txt\t2024-01-02 10:00:00\n@@ -1 +1 @@\n-a\n+b\n",
    );
    assert.equal(plain.files[0].path, "x.txt");
    const quoted = parseUnifiedDiff(
      'diff --git "a/caf\\303\\251 x" "b/caf\\303\\251 x"\n--- "a/caf\\303\\251 x"\n+++ "b/caf\\303\\251 x"\n@@ -1 +1 @@\n-a\n+b\n',
    );
    assert.equal(quoted.files[0].path, "café x");
    const dir = parseUnifiedDiff("--- a/x\n+++ a/x\n@@ -1 +1 @@\n-a\n+b\n");
    assert.equal(dir.files[0].path, "a/x");
  });

  const bad: [string, string, number, RegExp][] = [
    ["--- without +++", "--- a/x\n@@ -1 +1 @@\n", 2, /\+\+\+/],
    [
      "a short hunk",
      "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n",
      5,
      /the diff ends here/,
    ],
    [
      "a row the counts do not allow",
      "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n-b\n",
      5,
      /is not what comes here/,
    ],
    ["a bad hunk header", "--- a/x\n+++ b/x\n@@ -a +1 @@\n", 3, /hunk header/],
    [
      "a mode change",
      "diff --git a/x b/x\nold mode 100644\nnew mode 100755\n",
      2,
      /mode changes/,
    ],
    [
      "a binary file",
      "diff --git a/x b/x\nindex 1..2\nBinary files a/x and b/x differ\n",
      3,
      /binary/,
    ],
    ["no hunk for a plain edit", "--- a/x\n+++ b/x\n", 3, /hunk/],
    [
      "a stray line after a file",
      "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\nhello\n",
      6,
      /diff --git/,
    ],
  ];
  for (const [name, text, line, what] of bad) {
    it(
      `${name} is a SyntaxError naming line ${line}`,
      { timeout: 10_000 },
      () => {
        assert.throws(() => parsePatch(text), syntaxErrorAt(line, what));
      },
    );
  }
});
