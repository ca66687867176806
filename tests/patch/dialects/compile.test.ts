import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lineHash, lineHash32 } from "../../../src/hash/fnv.ts";
import { applyPatch } from "../../../src/patch/apply.ts";
import { lookupFromLines } from "../../../src/patch/lookup.ts";
import {
  type LineMemory,
  memoryFromHashes,
} from "../../../src/patch/memory.ts";
import { parsePatch } from "../../../src/patch/parse.ts";
import { compileDialect } from "../../../src/patch/dialects/compile.ts";
import type { PatchRefusedError } from "../../../src/errors.ts";

const a = (n: number, line: string): string => `${n}:${lineHash(line)}`;

function viewOf(lines: readonly (string | undefined)[]): LineMemory {
  const mem = memoryFromHashes(
    lines.map((l) => l === undefined ? undefined : lineHash32(l)),
  );
  mem.lineCount = lines.length;
  return mem;
}

function compile(
  text: string,
  read: readonly (string | undefined)[],
  now?: string[],
) {
  const dialect = parsePatch(text).dialect!;
  const view = viewOf(read);
  return compileDialect(dialect, (path) => ({
    display: path,
    view,
    ...(now ? { now: lookupFromLines(now) } : {}),
  }));
}

const FILE = [
  "def f():",
  "    x = 1",
  "    return x",
  "",
  "def g():",
  "    x = 1",
  "    return x",
];

describe("compiling a hunk into anchored ops", () => {
  it("replace, delete and inserts anchored to the lines as shown", {
    timeout: 10_000,
  }, () => {
    const out = compile(
      [
        "*** Begin Patch",
        "*** Update File: a.py",
        "@@",
        "+# top",
        " def f():",
        "-    x = 1",
        "+    x = 2",
        "     return x",
        "+",
        "-",
        " def g():",
        "*** End Patch",
      ].join("\n"),
      FILE,
    );
    assert.deepEqual(out.problems, []);
    assert.deepEqual(out.patch.files[0].ops, [
      { op: "insert_before", anchor: a(1, FILE[0]), lines: ["# top"] },
      { op: "replace", start: a(2, FILE[1]), lines: ["    x = 2"] },
      { op: "replace", start: a(4, ""), lines: [""] },
    ]);
    assert.equal(
      applyPatch(FILE.join("\n") + "\n", out.patch.files[0].ops),
      [
        "# top",
        "def f():",
        "    x = 2",
        "    return x",
        "",
        "def g():",
        "    x = 1",
        "    return x",
        "",
      ].join("\n"),
    );
  });

  it("a unified diff hunk: delete a range, insert after a context line", {
    timeout: 10_000,
  }, () => {
    const out = compile(
      "--- a/a.py\n+++ b/a.py\n@@ -4,4 +4,3 @@\n \n-def g():\n-    x = 1\n+# gone\n     return x\n",
      FILE,
    );
    assert.deepEqual(out.patch.files[0].ops, [
      {
        op: "replace",
        start: a(5, FILE[4]),
        end: a(6, FILE[5]),
        lines: ["# gone"],
      },
    ]);
    const del = compile(
      "--- a/a.py\n+++ b/a.py\n@@ -3,2 +3,1 @@\n     return x\n-\n",
      FILE,
    );
    assert.deepEqual(del.patch.files[0].ops, [{
      op: "delete",
      start: a(4, ""),
    }]);
  });

  it(
    "the @@ context line picks the place after it",
    { timeout: 10_000 },
    () => {
      const text = (header: string) =>
        `*** Begin Patch\n*** Update File: a.py\n@@ ${header}\n-    x = 1\n+    x = 9\n*** End Patch`;
      assert.equal(
        (compile(text("def f():"), FILE).patch.files[0].ops[0] as {
          start: string;
        }).start,
        a(2, FILE[1]),
      );
      assert.equal(
        (compile(text("def g():"), FILE).patch.files[0].ops[0] as {
          start: string;
        }).start,
        a(6, FILE[5]),
      );
    },
  );

  it(
    "End of File keeps the place at the end; a hunk of additions alone appends",
    { timeout: 10_000 },
    () => {
      const eof = compile(
        "*** Begin Patch\n*** Update File: a.py\n@@\n-    return x\n+    return 0\n*** End of File\n*** End Patch",
        FILE,
      );
      assert.equal(
        (eof.patch.files[0].ops[0] as { start: string }).start,
        a(7, FILE[6]),
      );
      const add = compile(
        "*** Begin Patch\n*** Update File: a.py\n@@\n+# end\n*** End Patch",
        FILE,
      );
      assert.deepEqual(add.patch.files[0].ops, [{
        op: "append",
        lines: ["# end"],
      }]);
      const after = compile(
        "--- a/a.py\n+++ b/a.py\n@@ -2,0 +3 @@\n+    y = 2\n",
        FILE,
      );
      assert.deepEqual(after.patch.files[0].ops, [{
        op: "insert_after",
        anchor: a(2, FILE[1]),
        lines: ["    y = 2"],
      }]);
      const top = compile("--- a/a.py\n+++ b/a.py\n@@ -0,0 +1 @@\n+#!\n", FILE);
      assert.deepEqual(top.patch.files[0].ops, [{
        op: "prepend",
        lines: ["#!"],
      }]);
    },
  );

  it("Add, Delete and Move become create, delete and rename", {
    timeout: 10_000,
  }, () => {
    const out = compile(
      "*** Begin Patch\n*** Add File: n.txt\n+hi\n*** Delete File: d.txt\n*** Update File: a.py\n*** Move to: b.py\n*** End Patch",
      FILE,
    );
    assert.deepEqual(out.patch.files, [
      { path: "n.txt", create: true, ops: [{ op: "append", lines: ["hi"] }] },
      { path: "d.txt", delete: true, ops: [] },
      { path: "a.py", ops: [], rename: "b.py" },
    ]);
  });
});

describe("hunks that are refused, never guessed", () => {
  const codeOf = (out: ReturnType<typeof compile>) =>
    out.problems.map((p) => p.code);

  it(
    "lines at two places of the view: MANY_MATCHES, line numbers do not pick",
    { timeout: 10_000 },
    () => {
      const out = compile(
        "--- a/a.py\n+++ b/a.py\n@@ -6,2 +6,2 @@\n-    x = 1\n+    x = 2\n     return x\n",
        FILE,
        FILE,
      );
      assert.deepEqual(codeOf(out), ["MANY_MATCHES"]);
      assert.match(out.problems[0].message, /2 places .*lines 2–3, lines 6–7/);
      assert.match(
        out.problems[0].message,
        new RegExp(`${a(6, FILE[5])}\\|    x = 1`),
      );
      assert.ok((out.problems[0].shown ?? []).length > 0);
      assert.deepEqual(out.patch.files, []);
    },
  );

  it("lines nowhere in the view: NO_MATCH with the closest lines", {
    timeout: 10_000,
  }, () => {
    const out = compile(
      "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    x = 3\n+    x = 2\n",
      FILE,
      FILE,
    );
    assert.deepEqual(codeOf(out), ["NO_MATCH"]);
    assert.match(
      out.problems[0].message,
      new RegExp(`${a(1, FILE[0])}\\|def f\\(\\):`),
    );
  });

  it(
    "context that differs only in indentation: NO_MATCH, no whitespace fallback",
    { timeout: 10_000 },
    () => {
      const out = compile(
        "*** Begin Patch\n*** Update File: a.py\n@@\n def g():\n-  x = 1\n+  x = 2\n*** End Patch",
        FILE,
        FILE,
      );
      assert.deepEqual(codeOf(out), ["NO_MATCH"]);
      assert.match(out.problems[0].message, /only if whitespace is changed/);
    },
  );

  it("lines the session was not shown: NOT_READ; no view at all: NOT_READ", {
    timeout: 10_000,
  }, () => {
    const partial = [
      ...FILE.slice(0, 3),
      undefined,
      undefined,
      undefined,
      undefined,
    ];
    const out = compile(
      "*** Begin Patch\n*** Update File: a.py\n@@\n def g():\n-    x = 1\n+    x = 2\n*** End Patch",
      partial,
      FILE,
    );
    assert.deepEqual(codeOf(out), ["NOT_READ"]);
    assert.match(
      out.problems[0].message,
      /lines 5–6, which this session was not shown/,
    );
    const never = compileDialect(
      parsePatch("--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-def f():\n+def h():\n")
        .dialect!,
      (path) => ({ display: path, view: undefined }),
    );
    assert.deepEqual(never.problems.map((p) => p.code), ["NOT_READ"]);
  });
});

describe("applyPatch with a dialect: the content (or the record) is the view", () => {
  const content = "alpha\nbeta\ngamma\n";
  const diff =
    "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n";

  it("applies to the content given", { timeout: 10_000 }, () => {
    assert.equal(applyPatch(content, diff), "alpha\nBETA\ngamma\n");
  });

  it("with a record, drift refuses; rebase applies lines that only moved", {
    timeout: 10_000,
  }, () => {
    const memory = viewOf(["alpha", "beta", "gamma"]);
    const drifted = "new\nalpha\nbeta\ngamma\n";
    assert.throws(
      () => applyPatch(drifted, diff, { memory }),
      (e: unknown) =>
        (e as PatchRefusedError).problems?.[0]?.code === "STALE_ANCHOR",
    );
    assert.equal(
      applyPatch(drifted, diff, { memory, rebase: true }),
      "new\nalpha\nBETA\ngamma\n",
    );
  });

  it("file operations and several files are refused for one content", {
    timeout: 10_000,
  }, () => {
    assert.throws(
      () =>
        applyPatch(
          content,
          "*** Begin Patch\n*** Add File: y\n+a\n*** End Patch",
        ),
      TypeError,
    );
    assert.throws(
      () => applyPatch(content, diff + diff.replaceAll("/x", "/z")),
      /2 files/,
    );
  });
});
