import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { formatHashlines } from "../../src/anchor/format.ts";
import { hashline, type TempDir, tempDir } from "./_cli.ts";

const SOURCE = "def greet(name):\n    return name\n\nprint(greet('x'))\n";

describe("hashline store read (anchored revision views) as a process", () => {
  let t: TempDir;
  before(async () => {
    t = await tempDir({ "app.py": SOURCE });
  });
  after(() => t.cleanup());

  it(
    "shows a revision as LINE:HH|content windows whose anchors store patch takes",
    { timeout: 120_000 },
    async () => {
      const put = await hashline(["store", "put", "app.py", "--json"], {
        cwd: t.dir,
      });
      assert.equal(put.code, 0, put.stderr);
      const { handle, ref } = JSON.parse(put.stdout);
      const [view, window, json] = await Promise.all([
        hashline(["store", "read", handle], { cwd: t.dir }),
        hashline(["store", "read", handle, "--offset", "2", "--limit", "2"], {
          cwd: t.dir,
        }),
        hashline(["store", "read", ref, "--limit", "1", "--json"], {
          cwd: t.dir,
        }),
      ]);
      assert.equal(view.code, 0, view.stderr);
      assert.equal(view.stdout, formatHashlines(SOURCE).text + "\n");
      assert.equal(view.stderr, `(${handle} lines 1–4 of 4)\n`);
      assert.equal(
        window.stdout,
        formatHashlines(SOURCE, { offset: 2, limit: 2 }).text + "\n",
      );
      assert.equal(
        window.stderr,
        `(${handle} lines 2–3 of 4; next: --offset 4)\n`,
      );
      assert.deepEqual(JSON.parse(json.stdout), {
        ok: true,
        ref,
        handle,
        ...formatHashlines(SOURCE, { limit: 1 }),
      });
      // A model builds the patch from the anchors it was shown.
      const anchor = view.stdout.split("\n")[1].split("|")[0];
      const patched = await hashline(
        ["store", "patch", handle, "-", "--json"],
        {
          cwd: t.dir,
          input: `= ${anchor}\n~    return f"hi {name}"\n`,
        },
      );
      assert.equal(patched.code, 0, patched.stderr);
      const next = JSON.parse(patched.stdout);
      assert.equal(next.parentRef, ref);
      const after = await hashline(["store", "read", next.handle], {
        cwd: t.dir,
      });
      assert.match(after.stdout, /^2:[0-9a-f]{2}\| {4}return f"hi \{name\}"$/m);
      const past = await hashline([
        "store",
        "read",
        handle,
        "--offset",
        "9",
        "--json",
      ], { cwd: t.dir });
      assert.equal(past.code, 2);
      assert.match(JSON.parse(past.stdout).error.message, /4 lines/);
      assert.equal(await readFile(join(t.dir, "app.py"), "utf8"), SOURCE);
    },
  );
});
