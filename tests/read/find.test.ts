// Finding files through the library (docs/workspace.md "Finding files"):
// ws.list and ws.search, their bounds, what they leave out, and search
// lines that count as read so a patch needs no read first.
import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import { makeTree, type Tree } from "../workspace/_helpers.ts";

const anchor = (n: number, line: string) => `${n}:${lineHash(line)}`;

async function put(tree: Tree, files: Record<string, string | Uint8Array>) {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(tree.root, name)), { recursive: true });
    await writeFile(join(tree.root, name), content);
  }
}

async function withTree(
  files: Record<string, string | Uint8Array>,
  fn: (tree: Tree) => Promise<void>,
): Promise<void> {
  const tree = await makeTree();
  try {
    await put(tree, files);
    await fn(tree);
  } finally {
    await tree.cleanup();
  }
}

describe("ws.list", () => {
  it(
    "leaves out .gitignored (root and nested), denied, .git/ and .hashline/ paths",
    {
      timeout: 30_000,
    },
    async () => {
      await withTree({
        ".gitignore": "# build\ndist/\n*.log\n!keep.log\n/top.txt\n",
        "a.ts": "a\n",
        "top.txt": "t\n",
        "src/top.txt": "t\n",
        "src/b.ts": "b\n",
        "src/debug.log": "d\n",
        "src/keep.log": "k\n",
        "src/gen/.gitignore": "*.js\n",
        "src/gen/out.js": "o\n",
        "src/gen/out.ts": "o\n",
        "dist/x.js": "x\n",
        "secret/key.pem": "k\n",
        ".git/config": "c\n",
        ".hashline/sessions/x": "s\n",
      }, async (tree) => {
        const ws = tree.open({ deny: ["secret/**"] });
        const found = await ws.list();
        assert.deepEqual(found.paths, [
          ".gitignore",
          "a.ts",
          "src/b.ts",
          "src/gen/.gitignore",
          "src/gen/out.ts",
          "src/keep.log",
          "src/top.txt",
        ]);
        assert.equal(found.total, 7);
        assert.equal(found.text, found.paths.join("\n"));
      });
    },
  );

  it("takes a glob: a name at any depth, a path, or a folder", {
    timeout: 30_000,
  }, async () => {
    await withTree({
      "a.ts": "",
      "src/b.ts": "",
      "src/c.md": "",
      "src/deep/d.ts": "",
    }, async (tree) => {
      const ws = tree.open();
      assert.deepEqual((await ws.list({ glob: "*.ts" })).paths, [
        "a.ts",
        "src/b.ts",
        "src/deep/d.ts",
      ]);
      assert.deepEqual((await ws.list({ glob: "src/*.ts" })).paths, [
        "src/b.ts",
      ]);
      assert.deepEqual((await ws.list({ glob: "src/deep" })).paths, [
        "src/deep/d.ts",
      ]);
      const none = await ws.list({ glob: "*.py" });
      assert.deepEqual(none.paths, []);
      assert.match(none.text, /No files match "\*\.py"/);
      await assert.rejects(ws.list({ glob: "" }), TypeError);
    });
  });

  it("shows at most 1,000 paths and names how many more", {
    timeout: 60_000,
  }, async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1003; i++) {
      files[`f/${String(i).padStart(4, "0")}.txt`] = "";
    }
    await withTree(files, async (tree) => {
      const found = await tree.open().list();
      assert.equal(found.paths.length, 1000);
      assert.equal(found.total, 1003);
      assert.equal(found.paths[999], "f/0999.txt");
      assert.match(found.text, /\(3 more files not shown: narrow the glob/);
    });
  });
});

describe("ws.search", () => {
  it(
    "shows each file's path, then its matching lines anchored; skips and counts binary and large files",
    {
      timeout: 30_000,
    },
    async () => {
      await withTree({
        "a.ts": "const x = 1;\nlet y = 2;\nconst z = 3;\n",
        "b.md": "# const\n",
        "c.txt": "nothing\n",
        "ignored.ts": "const q = 0;\n",
        ".gitignore": "ignored.ts\n",
        "img.bin": new Uint8Array([99, 111, 110, 115, 116, 0, 1, 2]),
        "big.txt": "const\n".repeat(200_000),
      }, async (tree) => {
        const found = await tree.open().search({ pattern: "const" });
        assert.equal(
          found.text,
          [
            "a.ts",
            `${anchor(1, "const x = 1;")}|const x = 1;`,
            `${anchor(3, "const z = 3;")}|const z = 3;`,
            "",
            "b.md",
            `${anchor(1, "# const")}|# const`,
            "",
            "(1 binary file skipped. 1 file over 1 MiB skipped: read them in windows.)",
          ].join("\n"),
        );
        assert.deepEqual(found.files, [
          { path: "a.ts", lines: [1, 3] },
          { path: "b.md", lines: [1] },
        ]);
        assert.equal(found.binary, 1);
        assert.equal(found.tooLarge, 1);
        assert.equal(found.shown, 3);
        assert.equal(found.more, 0);
      });
    },
  );

  it("shows at most 200 lines and names how many more", {
    timeout: 30_000,
  }, async () => {
    await withTree({
      "a.txt": "hit\n".repeat(150),
      "b.txt": "hit\n".repeat(100),
      "c.txt": "hit\n".repeat(5),
    }, async (tree) => {
      const found = await tree.open().search({ pattern: "^hit$" });
      assert.equal(found.shown, 200);
      assert.equal(found.more, 55);
      assert.deepEqual(found.files.map((f) => f.lines.length), [150, 50]);
      assert.match(
        found.text,
        /\(55 more matching lines \(in 1 more file\) not shown: narrow the pattern or the glob\.\)$/,
      );
    });
  });

  it("refuses a bad pattern with a TypeError naming it", {
    timeout: 30_000,
  }, async () => {
    await withTree({ "a.txt": "x\n" }, async (tree) => {
      const ws = tree.open();
      await assert.rejects(ws.search({ pattern: "f(" }), {
        name: "TypeError",
        message: /the pattern "f\(" is not a valid regular expression/,
      });
      await assert.rejects(
        ws.search({ pattern: "" }),
        /pattern must be a non-empty regular expression/,
      );
    });
  });

  it("counts the lines shown as read: a patch names one with no read first", {
    timeout: 30_000,
  }, async () => {
    await withTree({
      "src/app.ts": "import x from 'y';\nconst port = 80;\nexport {};\n",
    }, async (tree) => {
      const ws = tree.open();
      const patch = `@@ src/app.ts\n= ${
        anchor(2, "const port = 80;")
      }\n~const port = 8080;\n`;
      // Without the search the line was never seen: refused, nothing written.
      await assert.rejects(ws.patch(patch), { code: "NOT_READ" });
      assert.equal(
        await readFile(join(tree.root, "src/app.ts"), "utf8"),
        "import x from 'y';\nconst port = 80;\nexport {};\n",
      );
      const found = await ws.search({ pattern: "port =", glob: "*.ts" });
      assert.match(
        found.text,
        /^src\/app\.ts\n2:[0-9a-f]{2}\|const port = 80;$/,
      );
      const result = await ws.patch(patch);
      assert.match(result.summary, /^Edited src\/app\.ts \(\+1 -1\)/);
      assert.equal(
        await readFile(join(tree.root, "src/app.ts"), "utf8"),
        "import x from 'y';\nconst port = 8080;\nexport {};\n",
      );
    });
  });

  it(
    "shows lines lean where the session last read the file lean, and a lean patch takes them",
    {
      timeout: 30_000,
    },
    async () => {
      await withTree({ "a.txt": "one\ntwo\nthree\n" }, async (tree) => {
        const ws = tree.open();
        await ws.read("a.txt", { limit: 1, anchors: "lean" });
        const found = await ws.search({ pattern: "three" });
        assert.equal(found.text, "a.txt\n3|three");
        await ws.patch("@@ a.txt\n= 3\n~THREE\n");
        assert.equal(
          await readFile(join(tree.root, "a.txt"), "utf8"),
          "one\ntwo\nTHREE\n",
        );
      });
    },
  );
});
