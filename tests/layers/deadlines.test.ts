import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const TESTS = dirname(dirname(fileURLToPath(import.meta.url)));

async function testFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...await testFiles(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

/**
 * The `describe` calls of a source text whose options, written before the
 * suite's body, carry a `timeout` (a deadline Deno would ignore).
 */
export function describeDeadlines(source: string): number[] {
  const lines: number[] = [];
  for (const match of source.matchAll(/\bdescribe(?:\.\w+)?\(/g)) {
    const rest = source.slice(match.index + match[0].length);
    const body = rest.search(/=>|\bfunction\b/);
    const head = body === -1 ? rest : rest.slice(0, body);
    if (/\btimeout\s*:/.test(head)) {
      lines.push(source.slice(0, match.index).split("\n").length);
    }
  }
  return lines;
}

describe("test deadlines", () => {
  it("finds a describe-only deadline in a suite head, and none on its tests", {
    timeout: 10_000,
  }, () => {
    // Spelt through a variable, so this file holds no such call itself.
    const d = "describe";
    const bad = [
      `${d}("s", { timeout: 60_000 }, () => {`,
      '  it("a", async () => {});',
      "});",
    ].join("\n");
    const good = [
      `${d}("s", () => {`,
      '  it("a", { timeout: 60_000 }, async () => {});',
      "});",
    ].join("\n");
    const wrapped =
      `${d}(\n  "s",\n  {\n    timeout: 5,\n  },\n  () => {},\n);`;
    assert.deepEqual(describeDeadlines(bad), [1]);
    assert.deepEqual(describeDeadlines(good), []);
    assert.deepEqual(describeDeadlines(wrapped), [1]);
  });

  // Deno's node:test ignores a timeout given to describe, so a suite whose
  // only deadline sits there can hang a whole CI run.
  it("no test file puts its deadline on describe: every deadline sits on it", {
    timeout: 30_000,
  }, async () => {
    const found: string[] = [];
    for (const file of await testFiles(TESTS)) {
      const source = await readFile(file, "utf8");
      for (const line of describeDeadlines(source)) {
        found.push(`${relative(TESTS, file)}:${line}`);
      }
    }
    assert.deepEqual(
      found,
      [],
      `move these deadlines onto each it(): ${found.join(", ")}`,
    );
  });
});
