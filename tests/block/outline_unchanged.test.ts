// An edit after an outline read of a file unchanged since needs no alignment
// (docs/reads.md, "Outline reads"): a shown line whose text a hidden line repeats is edited in
// place, not refused as ambiguous. Through the CLI, one process per call.
import assert from "node:assert/strict";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import { hashline } from "../cli/_cli.ts";

const T = { timeout: 60_000 };
// Line 3 repeats line 1 inside a fence, so the outline hides it.
const MD = "# A\n```\n# A\n```\n## B\n";

describe("outline reads of an unchanged file", () => {
  it(
    "CLI: read --outline, then = 1:HH lands though a hidden line has the same text",
    T,
    async () => {
      const dir = await realpath(
        await mkdtemp(join(tmpdir(), "hashline-outline-same-")),
      );
      try {
        await writeFile(join(dir, "d.md"), MD);
        const env = { HASHLINE_STORE: join(dir, ".state") };
        const read = await hashline(["read", "--outline", "d.md"], {
          cwd: dir,
          env,
        });
        assert.equal(read.code, 0, read.stderr);
        assert.equal(
          read.stdout.trimEnd(),
          `@@ d.md\n1:${lineHash("# A")}|# A\n…2–4\n5:${lineHash("## B")}|## B`,
        );
        const edit = await hashline(["patch", "-"], {
          cwd: dir,
          env,
          input: `@@ d.md\n= 1:${lineHash("# A")}\n~# A2\n`,
        });
        assert.equal(edit.code, 0, edit.stderr + edit.stdout);
        assert.equal(
          await readFile(join(dir, "d.md"), "utf8"),
          "# A2\n```\n# A\n```\n## B\n",
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
