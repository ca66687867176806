/**
 * The file store's temp files and operating-system failures: a dead
 * writer's temps are swept on the next put (not after an hour), a live
 * writer's never; a full disk answers NO_SPACE (library, CLI and HTTP 507)
 * with nothing half-published, and a put after space is freed works.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  rmdir,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import { writerMark } from "../../src/_runtime/open.ts";
import { mapFsError } from "../../src/_internal/errno.ts";
import { statusOf } from "../../src/http/_status.ts";
import type { ErrorCode } from "../../src/errors.ts";
import { main } from "../../src/cli/main.ts";
import { createApp } from "../../src/http/app.ts";
import { openFileStore } from "../../src/store/file_store.ts";
import { collect, startTs } from "../_spawn.ts";

const WORKER = new URL("./_crash_worker.ts", import.meta.url).pathname;

describe("store temp files", () => {
  let dir: string;
  before(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), "hashline-temps-")));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("a writer killed mid-publish leaves a temp that the next put sweeps", {
    timeout: 60_000,
  }, async () => {
    const store = openFileStore(dir);
    try {
      await store.put("opened before the crash\n"); // init (and its sweep) done
      const run = await collect(startTs(WORKER, [dir, "object:half#1", "3"]));
      assert.equal(run.signal, "SIGKILL", run.stderr);
      const left = await readdir(join(dir, "tmp"));
      assert.equal(left.length, 1, "the killed writer left its half temp");
      await store.put("the next put\n");
      assert.deepEqual(await readdir(join(dir, "tmp")), []);
    } finally {
      await store.close();
    }
  });

  it("never sweeps a live writer's temp, nor one whose writer it cannot probe", async () => {
    const live = spawn(
      process.execPath,
      ["-e", "setTimeout(() => {}, 60000)"],
      {
        stdio: "ignore",
      },
    );
    try {
      assert.ok(live.pid);
      const dead = spawnSync(process.execPath, ["-e", "0"]).pid;
      const names = {
        liveChild: `w1-${writerMark()}-${live.pid}-0-00.tmp`,
        self: `w1-${writerMark()}-${process.pid}-0-01.tmp`,
        otherHost: `w1-someotherhost0-${dead}-0-02.tmp`,
        dead: `w1-${writerMark()}-${dead}-0-03.tmp`,
      };
      await mkdir(join(dir, "tmp"), { recursive: true });
      for (const name of Object.values(names)) {
        await writeFile(join(dir, "tmp", name), "half");
      }
      const store = openFileStore(dir);
      try {
        await store.put("another put\n");
      } finally {
        await store.close();
      }
      assert.deepEqual(
        (await readdir(join(dir, "tmp"))).sort(),
        [names.liveChild, names.self, names.otherHost].sort(),
      );
    } finally {
      live.kill("SIGKILL");
      await new Promise((r) => live.once("exit", r));
    }
  });
});

function tryMount(at: string): string | null {
  if (process.platform !== "linux") return "tmpfs mounts need Linux";
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", "size=2m", "none", at]);
  return r.status === 0
    ? null
    : `cannot mount a tmpfs here (${String(r.stderr).trim() || r.status})`;
}

/** Every published object holds the bytes its name hashes to; every handle parses. */
async function assertSound(storeDir: string): Promise<void> {
  for (const sub of await readdir(join(storeDir, "objects"))) {
    for (const name of await readdir(join(storeDir, "objects", sub))) {
      const bytes = await readFile(join(storeDir, "objects", sub, name));
      assert.equal(createHash("sha256").update(bytes).digest("hex"), name);
    }
  }
  for (const sub of await readdir(join(storeDir, "handles"))) {
    for (const name of await readdir(join(storeDir, "handles", sub))) {
      const rec = JSON.parse(
        await readFile(join(storeDir, "handles", sub, name), "utf8"),
      );
      assert.equal(rec.handle, name);
    }
  }
  assert.deepEqual(await readdir(join(storeDir, "tmp")), []);
}

describe("a full disk under the store", () => {
  let base: string;
  let mnt: string;
  let skipWhy: string | null = null;

  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), "hashline-full-")));
    mnt = join(base, "mnt");
    await mkdir(mnt);
    skipWhy = tryMount(mnt);
    if (skipWhy) console.error(`skipping the full-disk tests: ${skipWhy}`);
  });
  after(async () => {
    if (!skipWhy) spawnSync("umount", [mnt]);
    await rmdir(mnt).catch(() => {});
    await rm(base, { recursive: true, force: true });
  });

  it("store put answers NO_SPACE (library, CLI, HTTP 507), publishes nothing half, works once space is freed, and answers PERMISSION on a read-only mount", async (t) => {
    if (skipWhy) return t.skip(skipWhy);
    const storeDir = join(mnt, "store");
    const store = openFileStore(storeDir);
    const app = createApp({ root: base, store });
    try {
      const first = await store.put("fits\n");
      // Fill the disk, leaving too little for a 600 KB source.
      await writeFile(
        join(mnt, "filler"),
        new Uint8Array(1024 * 1024 + 512 * 1024),
      );
      const big = "x".repeat(600 * 1024) + "\n";
      await writeFile(join(base, "big.txt"), big);

      await assert.rejects(store.put(big), (e: Error & { code?: string }) => {
        assert.equal(e.code, "NO_SPACE");
        assert.equal(e.name, "NoSpaceError");
        assert.doesNotMatch(e.message, /\/proc|\/fd\/|\/tmp\//);
        return true;
      });
      await assert.rejects(store.importFrom(join(base, "big.txt")), {
        code: "NO_SPACE",
      });
      await assertSound(storeDir);

      let out = "";
      const code = await main(
        ["store", "put", join(base, "big.txt"), "--json"],
        {
          cwd: base,
          env: (name) => name === "HASHLINE_STORE" ? storeDir : undefined,
          stdout: (t) => Promise.resolve(void (out += t)),
          stderr: (t) => Promise.resolve(void (out += t)),
        },
      );
      assert.notEqual(code, 0);
      assert.match(out, /NO_SPACE/);
      await assertSound(storeDir);

      const res = await app.request("/v1/revisions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ source: big }),
      });
      assert.equal(res.status, 507);
      const body = await res.json();
      assert.equal(body.ok, false);
      assert.equal(body.error.code, "NO_SPACE");
      assert.doesNotMatch(body.error.message, /\/proc|\/fd\/|\//);
      await assertSound(storeDir);
      // What was stored before is intact.
      assert.equal(await store.get(first.ref), "fits\n");

      await rm(join(mnt, "filler"));
      const put = await store.put(big);
      assert.equal(await store.get(put.handle), big);
      const again = await app.request("/v1/revisions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ source: big + "y\n" }),
      });
      assert.equal(again.status, 201);
      await assertSound(storeDir);

      // A read-only file system: PERMISSION (403), nothing changed.
      const ro = spawnSync("mount", ["-o", "remount,ro", mnt]);
      if (ro.status === 0) {
        try {
          await assert.rejects(store.put("read-only\n"), {
            code: "PERMISSION",
          });
          const refused = await app.request("/v1/revisions", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ source: "read-only\n" }),
          });
          assert.equal(refused.status, 403);
          const why = (await refused.json()).error;
          assert.equal(why.code, "PERMISSION");
          assert.doesNotMatch(why.message, /\/proc|\/fd\/|\//);
        } finally {
          spawnSync("mount", ["-o", "remount,rw", mnt]);
        }
        await assertSound(storeDir);
      }
    } finally {
      await store.close();
    }
  });
});

describe("the one errno map, for store writes", () => {
  const cases: [string, string, number][] = [
    ["ENOSPC", "NO_SPACE", 507],
    ["EDQUOT", "NO_SPACE", 507],
    ["EROFS", "PERMISSION", 403],
    ["EACCES", "PERMISSION", 403],
    ["EMFILE", "BUSY", 503],
    ["ENFILE", "BUSY", 503],
  ];
  for (const [errno, code, status] of cases) {
    it(`${errno} is ${code} (${status}), and the message names no OS path`, () => {
      const raw = Object.assign(
        new Error(`${errno}: failed, open '/proc/self/fd/7'`),
        { code: errno },
      );
      const typed = mapFsError(raw, "Cannot save the revision to the store") as
        & Error
        & { code: ErrorCode };
      assert.equal(typed.code, code);
      assert.equal(statusOf(typed.code), status);
      assert.doesNotMatch(typed.message, /\/proc|\/fd\//);
    });
  }
});
