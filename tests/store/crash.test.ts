import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { openFileStore } from "../../src/store/file_store.ts";
import { collect, startTs } from "../_spawn.ts";
import { crashSource } from "./_crash_source.ts";
import { expectedRef } from "./_suite.ts";

const WORKER = new URL("./_crash_worker.ts", import.meta.url).pathname;
const COUNT = 12;

interface Printed {
  i: number;
  ref: string;
  handle: string;
}

/** Opens the store after a crash and checks that everything published holds. */
async function checkAfterCrash(dir: string, printed: Printed[]): Promise<void> {
  const store = openFileStore(dir);
  try {
    for (const p of printed) {
      assert.deepEqual(await store.resolve(p.handle), {
        ref: p.ref,
        handle: p.handle,
      });
      assert.equal(await store.get(p.handle), crashSource(p.i));
    }
    for (const fan of await readdir(join(dir, "handles"))) {
      for (const handle of await readdir(join(dir, "handles", fan))) {
        const rec = JSON.parse(
          await readFile(join(dir, "handles", fan, handle), "utf8"),
        );
        assert.equal(rec.handle, handle);
        const text = await store.get(handle);
        assert.equal(expectedRef(text), rec.ref);
      }
    }
    for (const fan of await readdir(join(dir, "objects"))) {
      for (const hex of await readdir(join(dir, "objects", fan))) {
        const text = await store.get("sha256:" + hex);
        assert.equal(expectedRef(text), "sha256:" + hex);
      }
    }
    // A writer after the crash finishes the work: every revision gets stored, with the handles already published.
    const ids = new Map(printed.map((p) => [p.i, p.handle]));
    for (let i = 0; i < COUNT; i++) {
      const id = await store.put(crashSource(i));
      assert.equal(id.ref, expectedRef(crashSource(i)));
      if (ids.has(i)) assert.equal(id.handle, ids.get(i));
    }
  } finally {
    await store.close();
  }
}

function parse(stdout: string): Printed[] {
  return stdout.split("\n").filter((l) => l.trim() !== "").map((l) =>
    JSON.parse(l)
  );
}

describe("a writer killed at any point leaves a sound store", () => {
  // One kill per distinct state a publish can be cut in: a half temp file, an object
  // without its handle, a half handle temp file, a published handle whose temp file stayed.
  const steps = [
    "object:half",
    "object:linked",
    "handle:half",
    "handle:linked",
  ];

  it("SIGKILL at every step of publishing objects and handles", {
    timeout: 60_000,
  }, async () => {
    const dirs = await Promise.all(
      steps.map(() => mkdtemp(join(tmpdir(), "hashline-crash-"))),
    );
    try {
      const runs = await Promise.all(
        steps.map((step, k) =>
          collect(startTs(WORKER, [dirs[k], `${step}#${4 + k}`, String(COUNT)]))
        ),
      );
      for (let k = 0; k < steps.length; k++) {
        assert.equal(
          runs[k].signal,
          "SIGKILL",
          `${steps[k]}: ${runs[k].stderr}`,
        );
        const printed = parse(runs[k].stdout);
        assert.ok(printed.length < COUNT);
        await checkAfterCrash(dirs[k], printed);
      }
    } finally {
      await Promise.all(
        dirs.map((d) => rm(d, { recursive: true, force: true })),
      );
    }
  });

  it("SIGKILL at a random moment, while revisions are being written", {
    timeout: 60_000,
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), "hashline-crash-"));
    try {
      for (const after of [3]) {
        const child = startTs(WORKER, [dir, "none#0", "1000"]);
        let lines = 0;
        child.stdout?.on("data", (d: Buffer | string) => {
          lines += String(d).split("\n").length - 1;
          if (lines >= after) child.kill("SIGKILL");
        });
        const run = await collect(child);
        assert.equal(run.signal, "SIGKILL");
        await checkAfterCrash(
          dir,
          parse(run.stdout).filter((p) => p.i < COUNT),
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
