/**
 * The review page in a real browser (Debian's chromium driven through
 * playwright-core): a real server on 127.0.0.1:0 over a temp workspace; an
 * edit; the list; the entry with its diff; Undo; the file's bytes restored
 * on disk; the new entry listed. Skipped, saying why, when chromium is
 * missing outside CI; under CI=true a missing browser fails the test.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import process from "node:process";
import { describe, it } from "node:test";
import { startServer } from "../../src/http/server.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { makeTree } from "../workspace/_helpers.ts";
import { anchors } from "./_helpers.ts";
import {
  CHROMIUM_ARGS as ARGS,
  CHROMIUM_PATH as CHROMIUM,
} from "../../scripts/_chromium.ts";

const CI = process.env.CI === "true";
const missing = !existsSync(CHROMIUM);
if (missing && !CI) {
  console.log(
    `browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium); under CI=true it fails instead.`,
  );
}

describe("review page in chromium", () => {
  it("list → entry with diff → Undo → file restored, new entry listed", {
    skip: missing && !CI ? `${CHROMIUM} is missing` : false,
    timeout: 120_000,
  }, async () => {
    assert.ok(!missing, `${CHROMIUM} is missing (CI=true): install chromium`);
    const { chromium } = await import("playwright-core");
    const t = await makeTree();
    const profile = await mkdtemp(join(tmpdir(), "hashline-chromium-"));
    const original = "const a = 1;\r\nconst b = 2;\r\nconst c = 3;\r\n";
    await writeFile(join(t.root, "app.ts"), original);
    const ws = openWorkspace(t.root, { stateDir: t.state, session: "agent-7" });
    const a = await anchors(ws, "app.ts");
    const edit = await ws.patch({
      files: [{
        path: "app.ts",
        ops: [{ op: "replace", start: a[1], lines: ["const b = 42;"] }],
      }],
    });
    const server = await startServer({
      host: "127.0.0.1",
      port: 0,
      root: t.root,
      stateDir: t.state,
    });
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [...ARGS],
      viewport: { width: 390, height: 844 },
    });
    try {
      const page = context.pages()[0] ?? await context.newPage();
      await page.goto(`${server.url}/`);
      const link = page.getByRole("link", { name: edit.entry! });
      await link.waitFor();
      assert.match(
        await page.locator("ol.entries li").first().innerText(),
        /agent-7/,
      );
      await link.click();
      await page.waitForURL(`${server.url}/history/${edit.entry}`);
      const diff = await page.locator("pre.diff").innerText();
      assert.match(diff, /^-const b = 2;$/m);
      assert.match(diff, /^\+const b = 42;$/m);
      await page.getByRole("button", { name: "Undo" }).click();
      await page.waitForURL(/\/history\/h_2$/);
      assert.match(await page.locator("body").innerText(), /undo of h_1/);
      assert.deepEqual(
        await readFile(join(t.root, "app.ts")),
        Buffer.from(original),
      );
      await page.getByRole("link", { name: "← All entries" }).click();
      await page.waitForURL(`${server.url}/`);
      const ids = await page.locator("ol.entries a.id").allInnerTexts();
      assert.deepEqual(ids, ["h_2", "h_1"]);
      // The page fits a phone's width: nothing scrolls sideways.
      const wide = await page.evaluate(
        "document.documentElement.scrollWidth <= window.innerWidth",
      );
      assert.ok(wide);
    } finally {
      await context.close();
      await server.close();
      await rm(profile, { recursive: true, force: true });
      await t.cleanup();
    }
  });
});
