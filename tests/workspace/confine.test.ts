import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { makeTree, snapshot, type Tree } from "./_helpers.ts";

interface Attack {
  name: string;
  /** The refusal's code (default OUTSIDE_ROOT). */
  code?: string;
  setup?: (t: Tree) => Promise<void | false>;
  path: (t: Tree) => string;
}

const attacks: Attack[] = [
  { name: "a .. escape", path: () => "../outside/secret.txt" },
  {
    name: "a .. escape through a subfolder",
    path: () => "sub/../../outside/secret.txt",
  },
  {
    name: "an absolute path outside",
    path: (t) => join(t.outside, "secret.txt"),
  },
  {
    name: "an absolute new file outside",
    path: (t) => join(t.outside, "new.txt"),
  },
  { name: "a prefix look-alike sibling", path: () => "../root-evil/x.txt" },
  {
    name: "a prefix look-alike as an absolute path",
    path: (t) => `${t.root}-evil/x.txt`,
  },
  {
    name: "a symlink to a file outside",
    setup: (t) =>
      symlink(join(t.outside, "secret.txt"), join(t.root, "link.txt")),
    path: () => "link.txt",
  },
  {
    name: "a symlinked parent folder",
    setup: (t) => symlink(t.outside, join(t.root, "linkdir")),
    path: () => "linkdir/secret.txt",
  },
  {
    name: "a new file through a symlinked parent folder",
    setup: (t) => symlink(t.outside, join(t.root, "linkdir")),
    path: () => "linkdir/created.txt",
  },
  {
    name: "a dangling symlink leading outside",
    setup: (t) =>
      symlink(join(t.outside, "nothing.txt"), join(t.root, "dangling.txt")),
    path: () => "dangling.txt",
  },
  {
    name: "a dangling symlink inside the root",
    setup: (t) => symlink("missing.txt", join(t.root, "dangling2.txt")),
    path: () => "dangling2.txt",
  },
  {
    name: "a dangling symlinked folder",
    setup: (t) => symlink(join(t.outside, "nodir"), join(t.root, "ghost")),
    path: () => "ghost/new.txt",
  },
  {
    name: "a symlink to the look-alike sibling",
    setup: (t) => symlink(`${t.root}-evil`, join(t.root, "evil")),
    path: () => "evil/x.txt",
  },
  { name: "a NUL byte", path: () => "a\0b.txt" },
  { name: "the root itself", path: () => "." },
  {
    name: "a folder",
    code: "NOT_A_FILE",
    setup: (t) => mkdir(join(t.root, "sub")),
    path: () => "sub",
  },
  {
    name: "a FIFO",
    code: "NOT_A_FILE",
    setup: (t) => {
      try {
        execFileSync("mkfifo", [join(t.root, "pipe")]);
        return Promise.resolve();
      } catch {
        return Promise.resolve(false);
      }
    },
    path: () => "pipe",
  },
  {
    name: "a device inside the root (when the test may create one)",
    code: "NOT_A_FILE",
    setup: (t) => {
      try {
        execFileSync("mknod", [join(t.root, "null"), "c", "1", "3"], {
          stdio: "ignore",
        });
        return Promise.resolve();
      } catch {
        return Promise.resolve(false);
      }
    },
    path: () => "null",
  },
  {
    name: "a device reached by an absolute path",
    path: () => "/dev/null",
  },
];

async function expectRefused(
  t: Tree,
  path: string,
  ws = t.open(),
  code = "OUTSIDE_ROOT",
): Promise<void> {
  const before = await snapshot(t.base, [t.state]);
  const ops = [
    () => ws.read(path),
    () =>
      ws.patch({
        files: [{ path, ops: [{ op: "append", lines: ["pwned"] }] }],
      }),
    () =>
      ws.patch({
        files: [{
          path,
          ops: [{ op: "replace", start: "1:00", lines: ["x"] }],
        }],
      }),
    () =>
      ws.patch({ files: [{ path, ops: [{ op: "append", lines: ["x"] }] }] }, {
        dryRun: true,
      }),
    () => ws.write(path, "pwned\n"),
  ];
  for (const op of ops) {
    await assert.rejects(
      op(),
      (e: Error & { code?: string; status?: number }) => {
        assert.equal(e.code, code, `${path}: ${e.message}`);
        return true;
      },
    );
  }
  assert.deepEqual(await snapshot(t.base, [t.state]), before);
}

describe("workspace confinement", () => {
  let t: Tree;
  before(async () => {
    t = await makeTree();
  });
  after(() => t.cleanup());

  for (const attack of attacks) {
    it(`refuses ${attack.name}, touching nothing`, async (ctx) => {
      const tree = await makeTree();
      try {
        await writeFile(join(tree.outside, "secret.txt"), "secret\n");
        await mkdir(`${tree.root}-evil`);
        await writeFile(`${tree.root}-evil/x.txt`, "evil\n");
        await writeFile(join(tree.root, "ok.txt"), "fine\n");
        if ((await attack.setup?.(tree)) === false) {
          ctx.skip(`${attack.name} cannot be made on this machine`);
          return;
        }
        await expectRefused(
          tree,
          attack.path(tree),
          tree.open(),
          attack.code,
        );
      } finally {
        await tree.cleanup();
      }
    });
  }

  it("refuses a socket", async (ctx) => {
    const sock = join(t.root, "s.sock");
    const server = createServer();
    const listening = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(sock, () => resolve(true));
    });
    if (!listening) {
      ctx.skip("a Unix socket cannot be made on this machine");
      return;
    }
    try {
      await expectRefused(t, "s.sock", t.open(), "NOT_A_FILE");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("refuses a whole multi-file patch when one path escapes, writing nothing", async () => {
    await writeFile(join(t.root, "good.txt"), "a\nb\n");
    await writeFile(join(t.outside, "secret.txt"), "secret\n");
    const ws = t.open();
    await ws.read("good.txt");
    const before = await snapshot(t.base, [t.state]);
    await assert.rejects(
      ws.patch({
        files: [
          { path: "good.txt", ops: [{ op: "append", lines: ["c"] }] },
          {
            path: "../outside/secret.txt",
            ops: [{ op: "append", lines: ["x"] }],
          },
        ],
      }),
      { code: "OUTSIDE_ROOT" },
    );
    assert.deepEqual(await snapshot(t.base, [t.state]), before);
  });

  it("refuses files inside the state folder when it lies inside the root", async () => {
    const tree = await makeTree();
    try {
      const state = join(tree.root, ".hashline");
      await writeFile(join(tree.root, "a.txt"), "a\n");
      const ws = tree.open({ stateDir: state });
      await ws.read("a.txt");
      await expectRefused(
        tree,
        ".hashline/sessions/default.json",
        ws,
        "DENIED",
      );
      await expectRefused(tree, ".hashline/journal/x.json", ws, "DENIED");
    } finally {
      await tree.cleanup();
    }
  });

  it("accepts symlinks and absolute paths that stay inside the root", async () => {
    await mkdir(join(t.root, "real"), { recursive: true });
    await writeFile(join(t.root, "real", "f.txt"), "one\n");
    await symlink(join(t.root, "real"), join(t.root, "alias"));
    await symlink("f.txt", join(t.root, "real", "f-link.txt"));
    const ws = t.open();
    assert.equal(
      (await ws.read("alias/f.txt")).text,
      `1:${lineHash("one")}|one`,
    );
    assert.equal(
      (await ws.read(join(t.root, "real", "f.txt"))).path,
      "real/f.txt",
    );
    const view = await ws.read("real/f-link.txt");
    await ws.patch({
      files: [{
        path: "real/f-link.txt",
        ops: [{ op: "append", lines: ["two"] }],
      }],
    });
    assert.equal(view.totalLines, 1);
    const after = await ws.read("real/f.txt");
    assert.equal(after.totalLines, 2);
  });

  it("refuses files over the size limit with TOO_LARGE", async () => {
    await writeFile(join(t.root, "big.txt"), "x".repeat(100) + "\n");
    const ws = t.open({ maxFileBytes: 50 });
    await assert.rejects(ws.read("big.txt"), {
      code: "TOO_LARGE",
    });
  });

  it("refuses binary and non-UTF-8 files, naming the byte offset", async () => {
    await writeFile(
      join(t.root, "nul.bin"),
      new Uint8Array([0x61, 0x0a, 0x62, 0x00, 0x63]),
    );
    await writeFile(
      join(t.root, "latin1.txt"),
      new Uint8Array([0x61, 0x62, 0x0a, 0xe9, 0x0a]),
    );
    const late = new Uint8Array(9000).fill(0x61);
    late[8500] = 0;
    await writeFile(join(t.root, "late-nul.txt"), late);
    const ws = t.open();
    await assert.rejects(
      ws.read("nul.bin"),
      (e: Error & { code: string; offset: number }) => {
        assert.equal(e.code, "NOT_TEXT");
        assert.equal(e.offset, 3);
        assert.match(e.message, /offset 3/);
        return true;
      },
    );
    await assert.rejects(ws.read("latin1.txt"), {
      code: "NOT_TEXT",
      offset: 3,
    });
    assert.equal((await ws.read("late-nul.txt")).totalLines, 1);
    const streamed = t.open({ streamThreshold: 0 });
    await assert.rejects(streamed.read("nul.bin"), {
      code: "NOT_TEXT",
      offset: 3,
    });
    await assert.rejects(streamed.read("latin1.txt"), {
      code: "NOT_TEXT",
      offset: 3,
    });
  });

  it("answers NOT_FOUND for a missing file and a missing root", async () => {
    const ws = t.open();
    await assert.rejects(ws.read("nope.txt"), {
      code: "NOT_FOUND",
    });
    assert.throws(() => openWorkspace(join(t.base, "missing")), {
      code: "NOT_FOUND",
    });
  });
});
