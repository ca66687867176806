import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import type { Patch } from "../../src/patch/types.ts";
import { createMemoryStore } from "../../src/store/mod.ts";
import { createToolRegistry } from "../../src/tools/mod.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { call, tempTree } from "../http/_helpers.ts";
import { hashline } from "../cli/_cli.ts";
import { connectHttp } from "../mcp/_client.ts";

const SOURCE = [
  "export function add(a: number, b: number): number {",
  "  return a + b;",
  "}",
  "",
  "export function sub(a: number, b: number): number {",
  "  return a - b;",
  "}",
  "",
].join("\n");

/** The anchor of line `n` from a read view's text. */
function anchorOf(view: string, n: number): string {
  const line = view.split("\n").find((l) => l.startsWith(`${n}:`));
  assert.ok(line, `line ${n} in the view`);
  return line.slice(0, line.indexOf("|"));
}

/** A patch deleting the `}` of line 3. */
function dropBrace(view: string): Patch {
  return {
    files: [{
      path: "src/a.ts",
      ops: [{ op: "delete", start: anchorOf(view, 3) }],
    }],
  };
}

describe("syntax checks on every surface", () => {
  it("workspace: a patch dropping a } warns naming the line; refuse writes nothing", async () => {
    const tree = await tempTree({ "src/a.ts": SOURCE });
    try {
      const file = join(tree.dir, "src/a.ts");
      const ws = openWorkspace(tree.dir, {
        stateDir: join(tree.dir, ".hashline"),
        check: "refuse",
      });
      const view = (await ws.read("src/a.ts")).text;
      await assert.rejects(
        ws.patch(dropBrace(view)),
        (e: Error & { code?: string }) => {
          assert.equal(e.code, "SYNTAX");
          assert.match(e.message, /^Rejected — nothing written\./);
          assert.match(
            e.message,
            /src\/a\.ts: the edit introduces 1 typescript syntax error/,
          );
          assert.match(
            e.message,
            /- line \d+ \(\d+:[0-9a-f]{2}\): missing "\}"/,
          );
          return true;
        },
      );
      assert.equal(await readFile(file, "utf8"), SOURCE, "bytes unchanged");
      await assert.rejects(ws.write("src/a.ts", "export const x = ;\n"), {
        code: "SYNTAX",
      });
      assert.equal(await readFile(file, "utf8"), SOURCE);

      const warn = openWorkspace(tree.dir, {
        stateDir: join(tree.dir, ".hashline"),
      });
      const v2 = (await warn.read("src/a.ts")).text;
      const r = await warn.patch(dropBrace(v2));
      assert.equal(r.checks.length, 1);
      assert.equal(r.checks[0].status, "broken");
      const line = r.checks[0].errors[0].line;
      assert.match(
        r.summary,
        new RegExp(
          `Warning: src/a\\.ts: the edit introduces 1 typescript syntax error`,
        ),
      );
      assert.match(
        r.summary,
        new RegExp(
          `- line ${line} \\(${r.checks[0].errors[0].anchor}\\): missing "\\}"`,
        ),
      );
      assert.ok(r.warnings.some((w) => w.includes(`line ${line}`)));
      assert.notEqual(await readFile(file, "utf8"), SOURCE, "warn writes");
    } finally {
      await tree.cleanup();
    }
  });

  it("workspace: a file already broken elsewhere gets no blame for a valid edit", async () => {
    const broken = SOURCE.replace("  return a + b;", "  return (a + b;");
    const tree = await tempTree({ "src/a.ts": broken });
    try {
      const ws = openWorkspace(tree.dir, {
        stateDir: join(tree.dir, ".hashline"),
        check: "refuse",
      });
      const view = (await ws.read("src/a.ts")).text;
      const r = await ws.patch({
        files: [{
          path: "src/a.ts",
          ops: [{
            op: "replace",
            start: anchorOf(view, 6),
            lines: ["  return b - a;"],
          }],
        }],
      });
      assert.deepEqual(r.checks.map((c) => c.status), ["ok"]);
      assert.doesNotMatch(r.summary, /syntax/);
    } finally {
      await tree.cleanup();
    }
  });

  it("CLI: --check refuse exits 1 and leaves the bytes; warn prints the warning", async () => {
    const tree = await tempTree({ "src/a.ts": SOURCE, "src/c.ts": SOURCE });
    try {
      const run = {
        cwd: tree.dir,
        env: { HASHLINE_STORE: join(tree.dir, ".hashline") },
      };
      const read = await hashline(["read", "src/a.ts"], run);
      assert.equal(read.code, 0, read.stderr);
      const patch = JSON.stringify(dropBrace(read.stdout));
      const refused = await hashline(["patch", "-", "--check", "refuse"], {
        ...run,
        input: patch,
      });
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr + refused.stdout, /missing "\}"/);
      assert.equal(await readFile(join(tree.dir, "src/a.ts"), "utf8"), SOURCE);
      const warned = await hashline(["patch", "-"], { ...run, input: patch });
      assert.equal(warned.code, 0, warned.stderr);
      assert.match(
        warned.stdout,
        /Warning: src\/a\.ts: the edit introduces 1 typescript syntax error/,
      );

      // A revision has no file name: its language is the one its base parses under.
      const put = await hashline(["store", "put", "src/c.ts"], run);
      assert.equal(put.code, 0, put.stderr);
      const handle = put.stdout.trim().split(/\s+/)[1];
      const edit = [
        "store",
        "edit",
        handle,
        "--old",
        "  return a - b;\n}",
        "--new",
        "  return a - b;",
      ];
      const no = await hashline([...edit, "--check", "refuse"], run);
      assert.equal(no.code, 1, no.stderr);
      assert.match(no.stderr + no.stdout, /missing "\}"/);
      const yes = await hashline(edit, run);
      assert.equal(yes.code, 0, yes.stderr);
      assert.match(
        yes.stdout,
        /Warning: the edit introduces 1 typescript syntax error/,
      );
    } finally {
      await tree.cleanup();
    }
  });

  it("HTTP and MCP results carry the warnings; the check parameter refuses with 409 SYNTAX", async () => {
    const tree = await tempTree({ "src/a.ts": SOURCE, "src/b.ts": SOURCE });
    try {
      const app = createApp({
        root: tree.dir,
        stateDir: join(tree.dir, ".hashline"),
      });
      const read = await call(app, "POST", "/v1/files/read", {
        path: "src/a.ts",
      });
      const refused = await call(app, "POST", "/v1/files/patch", {
        ...dropBrace(read.body.text),
        check: "refuse",
      });
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error.code, "SYNTAX");
      assert.equal(await readFile(join(tree.dir, "src/a.ts"), "utf8"), SOURCE);
      const ok = await call(
        app,
        "POST",
        "/v1/files/patch",
        dropBrace(read.body.text),
      );
      assert.equal(ok.status, 200);
      assert.equal(ok.body.checks[0].status, "broken");
      assert.ok(ok.body.warnings.some((w: string) => /missing "\}"/.test(w)));

      const written = await call(app, "POST", "/v1/files/write", {
        path: "src/new.ts",
        content: "export const x = ;\n",
        check: "refuse",
      });
      assert.equal(written.status, 409);
      assert.equal(written.body.error.code, "SYNTAX");
      await assert.rejects(readFile(join(tree.dir, "src/new.ts")), {
        code: "ENOENT",
      });
      const loose = await call(app, "POST", "/v1/files/write", {
        path: "src/new.ts",
        content: "export const x = ;\n",
      });
      assert.equal(loose.status, 200);
      assert.equal(loose.body.checks[0].status, "broken");

      const mcp = await connectHttp("http://127.0.0.1/mcp", { app });
      try {
        const view = await mcp.tool("read_file", { path: "src/b.ts" });
        const patch = {
          files: [{
            path: "src/b.ts",
            ops: [{ op: "delete", start: anchorOf(view.text, 3) }],
          }],
        };
        const no = await mcp.tool("edit_file", { ...patch, check: "refuse" });
        assert.equal(no.isError, true);
        assert.match(no.text, /SYNTAX|missing "\}"/);
        assert.equal(
          await readFile(join(tree.dir, "src/b.ts"), "utf8"),
          SOURCE,
        );
        const yes = await mcp.tool("edit_file", patch);
        assert.equal(yes.isError, false);
        assert.match(
          yes.text,
          /Warning: src\/b\.ts: the edit introduces 1 typescript syntax error/,
        );
        assert.equal(
          (yes.text.match(/introduces 1 typescript/g) ?? []).length,
          1,
          "said once",
        );
      } finally {
        await mcp.close();
      }
    } finally {
      await tree.cleanup();
    }
  });

  it("tools: write_file, str_replace and revisions carry the check", async () => {
    const tree = await tempTree({ "a.py": "def f(x):\n    return x\n" });
    try {
      const workspace = openWorkspace(tree.dir, {
        stateDir: join(tree.dir, ".hashline"),
      });
      const store = createMemoryStore();
      const tools = (format: "hashline" | "str_replace", check?: "refuse") =>
        Object.fromEntries(
          createToolRegistry({ workspace, store, editFormat: format, check })
            .tools.map((t) => [t.name, t]),
        );
      const plain = tools("str_replace");
      await plain.read_file.handler({ path: "a.py" });
      const edited = await plain.edit_file.handler({
        path: "a.py",
        old_string: "def f(x):",
        new_string: "def f(x)",
      });
      assert.equal(edited.ok, true);
      assert.match(
        edited.ok ? edited.text : "",
        /Warning: a\.py: the edit introduces 1 python syntax error/,
      );
      const strict = tools("hashline", "refuse");
      const refused = await strict.write_file.handler({
        path: "a.py",
        content: "def g(:\n",
      });
      assert.equal(refused.ok, false);
      assert.equal(refused.ok ? "" : refused.error.code, "SYNTAX");

      const put = await strict.source_put.handler({ source: SOURCE });
      assert.equal(put.ok, true);
      const ref = put.ok ? (put.data as { handle: string }).handle : "";
      const bad = await strict.source_edit.handler({
        ref,
        edits: [{
          old_string: "  return a - b;\n}",
          new_string: "  return a - b;",
        }],
      });
      assert.equal(bad.ok, false);
      assert.equal(bad.ok ? "" : bad.error.code, "SYNTAX");
      const warned = await plain.source_edit.handler({
        ref,
        edits: [{
          old_string: "  return a - b;\n}",
          new_string: "  return a - b;",
        }],
      });
      assert.equal(warned.ok, true);
      assert.match(warned.ok ? warned.text : "", /typescript syntax error/);
      assert.equal(
        warned.ok
          ? (warned.data as { check: { status: string } }).check.status
          : "",
        "broken",
      );
    } finally {
      await tree.cleanup();
    }
  });

  it("tools: a registry that names no check follows its workspace's own (refuse)", async () => {
    const tree = await tempTree({ "a.py": "def f(x):\n    return x\n" });
    try {
      const file = join(tree.dir, "a.py");
      const workspace = openWorkspace(tree.dir, {
        stateDir: join(tree.dir, ".hashline"),
        check: "refuse",
      });
      const tools = Object.fromEntries(
        createToolRegistry({ workspace }).tools.map((t) => [t.name, t]),
      );
      await tools.read_file.handler({ path: "a.py" });
      const refused = await tools.write_file.handler({
        path: "a.py",
        content: "def g(:\n",
      });
      assert.equal(refused.ok, false);
      assert.equal(refused.ok ? "" : refused.error.code, "SYNTAX");
      assert.equal(await readFile(file, "utf8"), "def f(x):\n    return x\n");
      const warned = await tools.write_file.handler({
        path: "a.py",
        content: "def g(:\n",
        check: "warn",
      });
      assert.equal(warned.ok, true, "a call's own check wins");
    } finally {
      await tree.cleanup();
    }
  });
});
