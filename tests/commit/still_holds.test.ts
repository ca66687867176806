/**
 * The content half of a commit's last check (src/commit/_still_holds.ts):
 * the target, read again a chunk at a time through its pinned folder,
 * holds exactly the bytes the new content was built from. Files span
 * several chunks, so a difference in any chunk, a file grown or cut, and
 * another file or a symlink at the name are each told apart; and a commit
 * through `commitFiles` built from bytes the file no longer holds (only in
 * its last chunk) is refused, the file left as it is.
 */
import assert from "node:assert/strict";
import {
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  symlink,
  truncate,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { PatchRefusedError } from "../../src/errors.ts";
import { Confinement } from "../../src/fs/confine.ts";
import { CHUNK_BYTES } from "../../src/fs/io.ts";
import { partsUnder, pinFolder } from "../../src/fs/pin.ts";
import { stillHolds } from "../../src/commit/_still_holds.ts";
import { commitFiles, commitsFlushed } from "../../src/commit/commit.ts";

/** Three chunks and a tail: every chunk boundary is crossed. */
function content(): Uint8Array {
  const bytes = new Uint8Array(3 * CHUNK_BYTES + 5);
  for (let i = 0; i < bytes.length; i++) bytes[i] = 97 + (i % 26);
  return bytes;
}

/** A root holding `big.txt` with {@link content}, and its state folder. */
async function makeRoot(): Promise<{
  root: string;
  state: string;
  conf: Confinement;
  cleanup: () => Promise<void>;
}> {
  const base = await realpath(await mkdtemp(join(tmpdir(), "hashline-sh-")));
  const root = join(base, "root");
  const state = join(base, "state");
  await mkdir(root);
  await mkdir(state);
  await writeFile(join(root, "big.txt"), content());
  return {
    root,
    state,
    conf: new Confinement(root, root, state, 2 ** 32),
    cleanup: async () => {
      await commitsFlushed();
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** Rewrites one byte of a file in place (same inode, same size). */
async function flipByte(path: string, at: number): Promise<void> {
  const h = await open(path, "r+");
  try {
    const one = new Uint8Array(1);
    await h.read(one, 0, 1, at);
    one[0] ^= 1;
    await h.write(one, 0, 1, at);
  } finally {
    await h.close();
  }
}

/** Whether `big.txt`, as resolved before `change` ran, still holds {@link content}. */
async function holdsAfter(
  change: (path: string) => Promise<void>,
): Promise<boolean> {
  const { root, conf, cleanup } = await makeRoot();
  try {
    const target = await conf.resolve("big.txt");
    await change(join(root, "big.txt"));
    const pin = pinFolder(conf.rootRef, partsUnder(conf.rootRef, target.dir));
    try {
      return stillHolds(target, content(), pin);
    } finally {
      pin.close();
    }
  } finally {
    await cleanup();
  }
}

describe("a commit's last check of the content", () => {
  it("holds a file of several chunks left as it was", {
    timeout: 30_000,
  }, async () => {
    assert.equal(await holdsAfter(async () => {}), true);
  });

  for (
    const [where, at] of [
      ["first", 0],
      ["second", CHUNK_BYTES + 7],
      ["last", 3 * CHUNK_BYTES + 4],
    ] as const
  ) {
    it(`tells a byte changed in place in the ${where} chunk`, {
      timeout: 30_000,
    }, async () => {
      assert.equal(await holdsAfter((p) => flipByte(p, at)), false);
    });
  }

  it("tells a file grown or cut since", { timeout: 30_000 }, async () => {
    assert.equal(
      await holdsAfter((p) => writeFile(p, "more", { flag: "a" })),
      false,
    );
    assert.equal(
      await holdsAfter((p) => truncate(p, 3 * CHUNK_BYTES)),
      false,
    );
    assert.equal(await holdsAfter((p) => rm(p)), false);
  });

  it("tells another file or a symlink put at the name, whatever it holds", {
    timeout: 30_000,
  }, async () => {
    assert.equal(
      await holdsAfter(async (p) => {
        await writeFile(p + ".other", content());
        await rename(p + ".other", p);
      }),
      false,
    );
    assert.equal(
      await holdsAfter(async (p) => {
        await writeFile(p + ".real", content());
        await rm(p);
        await symlink(p + ".real", p);
      }),
      false,
    );
  });

  it(
    "refuses a commit built from bytes the file no longer holds in its last chunk, the file as it is",
    { timeout: 30_000 },
    async () => {
      const { root, state, conf, cleanup } = await makeRoot();
      try {
        const path = join(root, "big.txt");
        // Rewritten before the target is resolved: its identity is the one
        // the commit checks against, so only the bytes can tell (a runtime
        // whose change times are whole seconds misses a quick rewrite).
        await flipByte(path, 3 * CHUNK_BYTES + 2);
        const theirs = new Uint8Array(await readFile(path));
        const target = await conf.resolve("big.txt");
        await assert.rejects(
          commitFiles(state, conf, [{
            target,
            bytes: new TextEncoder().encode("new\n"),
            old: content(),
          }]),
          (e: unknown) => {
            assert.ok(e instanceof PatchRefusedError);
            assert.equal(e.code, "CHANGED");
            return true;
          },
        );
        assert.deepEqual(new Uint8Array(await readFile(path)), theirs);
        assert.deepEqual(await readdir(root), ["big.txt"]);
      } finally {
        await cleanup();
      }
    },
  );
});
