import assert from "node:assert/strict";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { outlineSample } from "../../bench/_outline_sample.ts";
import {
  OUTLINE_SHARE_BUDGET,
  outlineShare,
} from "../../bench/tools_tokens.ts";
import { PatchRefusedError } from "../../src/errors.ts";
import { createApp } from "../../src/http/app.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { hashline } from "../cli/_cli.ts";
import { connectHttp } from "../mcp/_client.ts";
import { at, MD, TS } from "./_files.ts";

const T = { timeout: 60_000 };

async function tree(files: Record<string, string>) {
  const dir = await realpath(
    await mkdtemp(join(tmpdir(), "hashline-outline-")),
  );
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(dir, name), text);
  }
  return {
    dir,
    ws: openWorkspace(dir, { stateDir: join(dir, ".state") }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

describe("outline reads", () => {
  it(
    "a 2,000-line TypeScript file: every declaration and member head as read, no body line, ≤ 15% of the tokens",
    T,
    async () => {
      const sample = outlineSample();
      const t = await tree({ "big.ts": sample.text });
      try {
        const full = (await t.ws.read("big.ts")).text.split("\n");
        const outline = await t.ws.read("big.ts", { outline: true });
        assert.equal(outline.outline, true);
        const rows = outline.text.split("\n");
        const shown = rows.filter((r) => !r.startsWith("…"));
        const heads = new Set(sample.heads);
        for (const n of sample.heads) {
          assert.ok(
            rows.includes(full[n - 1]),
            full[n - 1],
          );
        }
        for (const row of shown) {
          const n = Number(row.slice(0, row.indexOf(":")));
          assert.equal(row, full[n - 1]);
          assert.ok(heads.has(n) || /^\d+:..\|(export )?class /.test(row), row);
        }
        // Hidden runs: one marker each, covering exactly the lines not shown.
        let next = 1;
        for (const row of rows) {
          const m = /^…(\d+)(?:–(\d+))?$/.exec(row);
          const [a, b] = m
            ? [Number(m[1]), Number(m[2] ?? m[1])]
            : [Number(row.split(":")[0]), Number(row.split(":")[0])];
          assert.equal(a, next, row);
          next = b + 1;
        }
        assert.equal(next, outline.totalLines + 1);
        const share = await outlineShare();
        assert.ok(share.share <= OUTLINE_SHARE_BUDGET, JSON.stringify(share));
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    "a block op on a function seen only in outline is NOT_READ; a pasted marker is refused",
    T,
    async () => {
      const t = await tree({ "s.ts": TS });
      try {
        const view = await t.ws.read("s.ts", { outline: true });
        assert.match(view.text, /^4:..\|export function inc/m);
        const e = await t.ws.patch(`@@ s.ts\n- ${at(TS, 4)}*\n`).then(
          () => assert.fail("expected a refusal"),
          (e) => e,
        );
        assert.ok(e instanceof PatchRefusedError);
        assert.equal(e.problems[0].code, "NOT_READ");
        assert.match(e.message, /lines 5–6/);
        const marker = view.text.split("\n").find((r) => r.startsWith("…"))!;
        const pasted = await t.ws.patch(
          `@@ s.ts\n= ${at(TS, 1)}\n~${marker}\n`,
        ).then(() => assert.fail("expected a refusal"), (e) => e);
        assert.equal(pasted.problems[0].code, "PASTED_PREFIX");
        assert.equal(await readFile(join(t.dir, "s.ts"), "utf8"), TS);
        // The shown line counts as read: a one-line edit of it lands.
        await t.ws.patch(`@@ s.ts\n= ${at(TS, 1)}\n~import { y } from "y";\n`);
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    "offset and limit count file lines; Markdown shows headings; no grammar reads plainly with a note",
    T,
    async () => {
      const t = await tree({ "s.ts": TS, "g.md": MD, "n.txt": "a\nb\n" });
      try {
        const part = await t.ws.read("s.ts", {
          outline: true,
          offset: 9,
          limit: 6,
        });
        assert.equal(part.startLine, 9);
        assert.equal(part.endLine, 14);
        assert.equal(part.nextOffset, 15);
        assert.deepEqual(
          part.text.split("\n").map((r) => r.split("|")[0]),
          [at(TS, 9), at(TS, 10), "…11–13", at(TS, 14)],
        );
        const md = await t.ws.read("g.md", { outline: true });
        assert.deepEqual(
          md.text.split("\n").map((r) => r.split("|")[0]),
          [at(MD, 1), "…2", at(MD, 3), "…4", at(MD, 5), "…6", at(MD, 7), "…8"],
        );
        const plain = await t.ws.read("n.txt", { outline: true });
        assert.equal(plain.outline, false);
        assert.match(plain.note ?? "", /no grammar/);
        assert.equal(plain.text, "1:ed|a\n2:23|b");
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    "Python decorated methods show both lines; a function's statements are no members",
    T,
    async () => {
      const py = [
        "class K:", // 1
        "    @property", // 2
        "    def p(self):", // 3
        "        return 2", // 4
        "", // 5
      ].join("\n");
      const ts = [
        "const run = () => {", // 1
        "  const a = 1;", // 2
        "  return a;", // 3
        "};", // 4
        "const table = {", // 5
        "  a: 1,", // 6
        "  b: () => {", // 7
        "    return 2;", // 8
        "  },", // 9
        "};", // 10
        "", // 11
      ].join("\n");
      const t = await tree({ "k.py": py, "r.ts": ts });
      try {
        const heads = async (name: string) =>
          (await t.ws.read(name, { outline: true })).text.split("\n").map((r) =>
            r.startsWith("…") ? r : r.split(":")[0]
          );
        assert.deepEqual(await heads("k.py"), ["1", "2", "3", "…4"]);
        assert.deepEqual(await heads("r.ts"), [
          "1",
          "…2–4",
          "5",
          "6",
          "7",
          "…8–10",
        ]);
      } finally {
        await t.cleanup();
      }
    },
  );

  it("through MCP read_file and CLI read --outline", T, async () => {
    const t = await tree({ "s.ts": TS });
    const app = createApp({ root: t.dir, stateDir: join(t.dir, ".hashline") });
    const mcp = await connectHttp("http://localhost/mcp", { app });
    try {
      const read = await mcp.tool("read_file", { path: "s.ts", outline: true });
      assert.equal(read.isError, false, read.text);
      assert.match(read.text, /^…5–7$/m);
      const cli = await hashline(["read", "--outline", "s.ts"], {
        cwd: t.dir,
        env: { HASHLINE_STORE: join(t.dir, ".cli-state") },
      });
      assert.equal(cli.code, 0, cli.stderr);
      assert.equal(cli.stdout.trimEnd(), `@@ s.ts\n${read.text.trimEnd()}`);
    } finally {
      await mcp.close();
      await t.cleanup();
    }
  });
});
