// One mistake, one answer: the text and JSON forms of a patch refuse the
// same mistake with the same code and status, refusals name the mistake
// (a pasted "|content", a "+" used for a new line, a unified diff, the
// root a path left), and results and history write diffs one way.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { describeCheck } from "../../src/check/checker.ts";
import { createApp } from "../../src/http/app.ts";
import { lineHash } from "../../src/hash/fnv.ts";
import { createToolRegistry } from "../../src/tools/mod.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { call, errorOf, tempTree } from "../http/_helpers.ts";

const B = `2:${lineHash("b")}`;

describe("one mistake, one answer", () => {
  it("a bad anchor is 409 BAD_ANCHOR in the text form and the JSON form", {
    timeout: 30_000,
  }, async () => {
    const tree = await tempTree({ "a.txt": "a\nb\n" });
    try {
      const app = createApp({
        root: tree.dir,
        stateDir: join(tree.dir, ".hashline"),
      });
      await call(app, "POST", "/v1/files/read", { path: "a.txt" });
      const cases: [string, unknown][] = [
        ["text", { patch: "@@ a.txt\n= 2:zz\n~B\n" }],
        ["JSON", {
          files: [{
            path: "a.txt",
            ops: [{ op: "replace", start: "2:zz", lines: ["B"] }],
          }],
        }],
      ];
      for (const [form, body] of cases) {
        const r = await call(app, "POST", "/v1/files/patch", body);
        assert.equal(r.status, 409, form);
        const e = errorOf(r);
        assert.equal(e.code, "BAD_ANCHOR", form);
        assert.match(e.message, /"2:zz" is not an anchor/, form);
      }
      // The read line pasted whole: the message says what an anchor is.
      for (
        const body of [
          { patch: `@@ a.txt\n= ${B}|b\n~B\n` },
          {
            path: "a.txt",
            ops: [{ op: "replace", start: `${B}|b`, lines: ["B"] }],
          },
        ]
      ) {
        const r = await call(app, "POST", "/v1/files/patch", body);
        assert.equal(errorOf(r).code, "BAD_ANCHOR");
        assert.match(
          errorOf(r).message,
          new RegExp(
            `an anchor is ${B}; the text after "\\|" is not part of it`,
          ),
        );
      }
      assert.equal(await readFile(join(tree.dir, "a.txt"), "utf8"), "a\nb\n");
    } finally {
      await tree.cleanup();
    }
  });

  it("a parser refusal says what it saw", { timeout: 30_000 }, async () => {
    const tree = await tempTree({ "a.txt": "a\nb\n" });
    try {
      const ws = openWorkspace(tree.dir, {
        stateDir: join(tree.dir, ".hashline"),
      });
      await ws.read("a.txt");
      await assert.rejects(ws.patch(`@@ a.txt\n+ ${B}\n+new line\n`), {
        name: "SyntaxError",
        message: /new lines start with "~" \(write "~new line"\)/,
      });
      // A pasted unified diff is a patch in its own right now
      // (docs/patch-format.md#other-dialects, tests/dialects/).
      await assert.rejects(ws.read("../x.txt"), {
        code: "OUTSIDE_ROOT",
        message: new RegExp(
          `outside the workspace root ${tree.dir.replace(/[\\/.]/g, "\\$&")}`,
        ),
      });
      assert.equal(await readFile(join(tree.dir, "a.txt"), "utf8"), "a\nb\n");
      const registry = createToolRegistry({
        workspace: ws,
        tools: ["history"],
      });
      const bad = await registry.call("undo_edit", { id: "h_999" });
      assert.match(!bad.ok ? bad.error.message : "", /edit_history/);
      assert.doesNotMatch(!bad.ok ? bad.error.message : "", /the log/);
      const check = describeCheck({
        path: "a.ts",
        language: "typescript",
        status: "broken",
        errors: [{
          line: 1,
          column: 1,
          anchor: "1:aa",
          message: "unexpected",
          context: "x",
        }],
        reused: true,
      });
      assert.doesNotMatch(check, /receipt/);
    } finally {
      await tree.cleanup();
    }
  });

  it("an undo after a rename names the new path", {
    timeout: 30_000,
  }, async () => {
    const tree = await tempTree({ "a.txt": "a\nb\n" });
    try {
      const ws = openWorkspace(tree.dir, {
        stateDir: join(tree.dir, ".hashline"),
      });
      await ws.read("a.txt");
      const edit = await ws.patch(`@@ a.txt\n= ${B}\n~B\n`);
      const renamed = await ws.patch("@@ a.txt -> c.txt\n");
      await assert.rejects(ws.undo(edit.entry!), {
        code: "MOVED_ON",
        message: new RegExp(
          `the file is c\\.txt now \\(${renamed.entry} renamed it\\)`,
        ),
      });
      assert.equal(await readFile(join(tree.dir, "c.txt"), "utf8"), "a\nB\n");
    } finally {
      await tree.cleanup();
    }
  });

  it(
    "results and history write diff headers one way, /dev/null for a new file",
    {
      timeout: 30_000,
    },
    async () => {
      const tree = await tempTree({ "a.txt": "a\nb\n" });
      try {
        const ws = openWorkspace(tree.dir, {
          stateDir: join(tree.dir, ".hashline"),
        });
        await ws.read("a.txt");
        const edit = await ws.patch(`@@ a.txt\n= ${B}\n~B\n`);
        assert.match(edit.files[0].diff, /^--- a\.txt\n\+\+\+ a\.txt\n/);
        const shown = await ws.entry(edit.entry!);
        assert.match(shown.files[0].diff!, /^--- a\.txt\n\+\+\+ a\.txt\n/);
        const made = await ws.patch("@@+ n.txt\n+\n~new\n");
        assert.match(made.files[0].diff, /^--- \/dev\/null\n\+\+\+ n\.txt\n/);
        const madeEntry = await ws.entry(made.entry!);
        assert.match(
          madeEntry.files[0].diff!,
          /^--- \/dev\/null\n\+\+\+ n\.txt\n/,
        );
      } finally {
        await tree.cleanup();
      }
    },
  );
});
