import assert from "node:assert/strict";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { describe, it } from "node:test";
import { createChecker } from "../../src/check/mod.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { tempTree } from "../http/_helpers.ts";

/** Twenty statements, a function of ten, twenty more. */
const LINES = [
  ...Array.from({ length: 20 }, (_, i) => `export const v${i} = ${i};`),
  "export function f(): number {",
  ...Array.from({ length: 10 }, (_, i) => `  let a${i} = ${i};`),
  "  return a9;",
  "}",
  ...Array.from({ length: 20 }, (_, i) => `export const w${i} = ${i};`),
];
const SOURCE = LINES.join("\n") + "\n";
/** The function's closing `}` dropped: broken, but clean around the change. */
const BROKEN = LINES.filter((l) => l !== "}").join("\n") + "\n";

interface ReceiptFile {
  file: string;
  body: { key: string; errors: unknown[]; cuts?: number[]; seal?: string };
}

async function receipts(state: string): Promise<ReceiptFile[]> {
  const folder = join(state, "checks");
  const names = (await readdir(folder)).filter((n) => n.endsWith(".json"));
  return await Promise.all(names.map(async (n) => ({
    file: join(folder, n),
    body: JSON.parse(await readFile(join(folder, n), "utf8")),
  })));
}

/**
 * Opens a workspace over a file of {@link SOURCE} whose state folder holds
 * the receipts of `texts` (SOURCE's clean, with cuts; BROKEN's with its
 * errors), lets `plant` rewrite them, then patches SOURCE into BROKEN under
 * refuse.
 */
async function refusedAfterPlanting(
  texts: string[],
  plant: (found: ReceiptFile[]) => ReceiptFile[],
): Promise<void> {
  const tree = await tempTree({ "a.ts": SOURCE });
  try {
    const state = join(tree.dir, ".hashline");
    const checker = createChecker({ stateDir: state });
    for (const text of texts) {
      await checker.check({ path: "a.ts", before: null, after: text });
    }
    for (const r of plant(await receipts(state))) {
      await writeFile(r.file, JSON.stringify(r.body));
    }
    const ws = openWorkspace(tree.dir, { stateDir: state, check: "refuse" });
    const view = (await ws.read("a.ts")).text;
    const brace = view.split("\n").find((l) => l.endsWith("|}"))!;
    await assert.rejects(
      ws.patch(`@@ a.ts\n- ${brace.slice(0, brace.indexOf("|"))}\n`),
      (e: Error & { code?: string }) => {
        assert.equal(e.code, "SYNTAX", e.message);
        return true;
      },
    );
    assert.equal(await readFile(join(tree.dir, "a.ts"), "utf8"), SOURCE);
  } finally {
    await tree.cleanup();
  }
}

/** Every row a cut: plausible (ascending rows of the text), and bogus. */
const EVERY_ROW = Array.from({ length: LINES.length - 1 }, (_, i) => i + 1);

describe("receipts on disk are trusted only with their state folder's seal", () => {
  it("a receipt keeps a seal, and the folder's secret is its owner's alone", {
    timeout: 60_000,
  }, async () => {
    const tree = await tempTree({});
    try {
      const state = join(tree.dir, ".hashline");
      await createChecker({ stateDir: state }).check({
        path: "a.ts",
        before: null,
        after: SOURCE,
      });
      const [r] = await receipts(state);
      assert.match(r.body.seal ?? "", /^[0-9a-f]{64}$/);
      const key = await stat(join(state, "checks.key"));
      if (process.platform !== "win32") {
        assert.equal(key.mode & 0o077, 0, "no one else reads the secret");
      }
      // A later process reuses it.
      const later = createChecker({ stateDir: state });
      const again = await later.check({
        path: "a.ts",
        before: null,
        after: SOURCE,
      });
      assert.equal(again?.reused, true);
      assert.equal(later.parses, 0);
    } finally {
      await tree.cleanup();
    }
  });

  it(
    "plausible but bogus cuts under the old seal are ignored: the whole text is parsed and the edit refused",
    {
      timeout: 60_000,
    },
    async () => {
      await refusedAfterPlanting(
        [SOURCE],
        (found) =>
          found.filter((r) => r.body.cuts).map((r) => ({
            ...r,
            body: { ...r.body, cuts: EVERY_ROW },
          })),
      );
    },
  );

  it("plausible but bogus cuts without a seal are ignored", {
    timeout: 60_000,
  }, async () => {
    await refusedAfterPlanting(
      [SOURCE],
      (found) =>
        found.filter((r) => r.body.cuts).map((r) => ({
          ...r,
          body: { key: r.body.key, errors: [], cuts: EVERY_ROW },
        })),
    );
  });

  it(
    "a receipt that calls the broken text clean, sealed for another answer, is ignored",
    {
      timeout: 60_000,
    },
    async () => {
      await refusedAfterPlanting(
        [SOURCE, BROKEN],
        (found) =>
          found.filter((r) => r.body.errors.length > 0).map((r) => ({
            ...r,
            body: { ...r.body, errors: [] },
          })),
      );
    },
  );

  it("a receipt sealed in another state folder is ignored", {
    timeout: 60_000,
  }, async () => {
    const other = await tempTree({});
    try {
      const state = join(other.dir, ".hashline");
      await createChecker({ stateDir: state }).check({
        path: "a.ts",
        before: null,
        after: BROKEN.replace("export const v0 = 0;\n", ""),
      });
      const [foreign] = await receipts(state);
      // Its seal, moved onto a made-up clean answer for the broken text.
      await refusedAfterPlanting(
        [SOURCE, BROKEN],
        (found) =>
          found.filter((r) => r.body.errors.length > 0).map((r) => ({
            ...r,
            body: { key: r.body.key, errors: [], seal: foreign.body.seal },
          })),
      );
    } finally {
      await other.cleanup();
    }
  });
});
