/**
 * `log` and `show` print text an agent wrote (file names, lines, session
 * names) with control and bidi characters as visible escapes, in text and
 * in `--json`; `read` to a pipe stays byte-exact.
 */
import assert from "node:assert/strict";
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { frameRecord } from "../../src/history/mod.ts";
import { hashline } from "../cli/_cli.ts";
import { makeTree } from "../workspace/_helpers.ts";
import { anchors } from "./_helpers.ts";

// deno-lint-ignore no-control-regex
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

describe("history text is safe to print", () => {
  it("show and log print no raw ESC or U+202E; read stays byte-exact", {
    timeout: 60_000,
  }, async () => {
    const t = await makeTree();
    try {
      const name = "e\x1b[2Jx\u202Etxt.sh";
      const line = "ok\x1b]0;pwned\x07 \u202Egnp.exe\x9b";
      await writeFile(join(t.root, name), "first\nsecond\n");
      const ws = t.open();
      const a = await anchors(ws, name);
      const r = await ws.patch({
        files: [{
          path: name,
          ops: [{ op: "replace", start: a[0], lines: [line] }],
        }],
      });
      const env = { HASHLINE_STORE: t.state };
      for (
        const args of [
          ["show", r.entry!],
          ["show", r.entry!, "--json"],
          ["log"],
          ["log", "--json"],
        ]
      ) {
        const out = await hashline([...args, "--root", t.root], {
          cwd: t.root,
          env,
        });
        assert.equal(out.code, 0, out.stderr);
        assert.doesNotMatch(out.stdout, RAW, args.join(" "));
        assert.doesNotMatch(out.stderr, RAW, args.join(" "));
        if (args.includes("--json")) {
          // The same value once parsed: only the printing is escaped.
          const body = JSON.parse(out.stdout);
          const text = JSON.stringify(body);
          assert.ok(text.includes("\\u001b") || text.includes("\u001b"));
          const path = args[0] === "show"
            ? body.entry.files[0].path
            : body.entries[0].files[0].path;
          assert.equal(path, name);
        } else {
          assert.ok(out.stdout.includes("e\\x1b[2Jx<U+202E>txt.sh"));
          if (args[0] === "show") {
            assert.ok(
              out.stdout.includes("+ok\\x1b]0;pwned\\x07 <U+202E>gnp.exe\\x9b"),
            );
          }
        }
      }
      const read = await hashline(["read", name, "--root", t.root], {
        cwd: t.root,
        env,
      });
      assert.equal(read.code, 0, read.stderr);
      assert.ok(read.stdout.includes(`|${line}\n`));
    } finally {
      await t.cleanup();
    }
  });

  it(
    "log's warning about a skipped record shows its hostile id with visible escapes",
    {
      timeout: 60_000,
    },
    async () => {
      const t = await makeTree();
      try {
        await writeFile(join(t.root, "a.txt"), "one\n");
        const ws = t.open();
        await ws.read("a.txt");
        await ws.write("a.txt", "two\n");
        const log = join(t.state, "history", "log");
        const good = JSON.parse(
          (await readFile(log, "utf8")).trim().replace(/^\d+ [0-9a-f]+ /, ""),
        );
        await appendFile(
          log,
          frameRecord({ ...good, id: "h_\x1b[2J\u202Eevil" }),
        );
        const out = await hashline(["log", "--root", t.root], {
          cwd: t.root,
          env: { HASHLINE_STORE: t.state },
        });
        assert.equal(out.code, 0, out.stderr);
        assert.match(out.stderr, /Skipped record/);
        assert.ok(out.stderr.includes("<U+202E>evil"), out.stderr);
        assert.doesNotMatch(out.stderr, RAW);
        assert.doesNotMatch(out.stdout, RAW);
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    "undo's refusal quotes the line as it stands with visible escapes, in text and --json",
    {
      timeout: 60_000,
    },
    async () => {
      const t = await makeTree();
      try {
        await writeFile(join(t.root, "a.txt"), "one\ntwo\n");
        const ws = t.open();
        const a = await anchors(ws, "a.txt");
        const r = await ws.patch({
          files: [{
            path: "a.txt",
            ops: [{ op: "replace", start: a[1], lines: ["TWO"] }],
          }],
        });
        const now = "one\n\x1b]0;pwned\x07\u202Egnp.exe\n";
        await writeFile(join(t.root, "a.txt"), now);
        const env = { HASHLINE_STORE: t.state };
        const text = await hashline(["undo", r.entry!, "--root", t.root], {
          cwd: t.root,
          env,
        });
        assert.equal(text.code, 1);
        assert.match(text.stderr, /MOVED_ON|no longer holds what h_1 wrote/);
        assert.doesNotMatch(text.stderr, RAW);
        assert.ok(text.stderr.includes("<U+202E>gnp.exe"), text.stderr);
        const json = await hashline(
          ["undo", r.entry!, "--json", "--root", t.root],
          { cwd: t.root, env },
        );
        assert.equal(json.code, 1);
        assert.doesNotMatch(json.stdout, RAW);
        const body = JSON.parse(json.stdout);
        assert.equal(body.error.code, "MOVED_ON");
        assert.ok(body.error.message.includes("\u202Egnp.exe"));
        assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), now);
      } finally {
        await t.cleanup();
      }
    },
  );
});
