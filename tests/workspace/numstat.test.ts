// `+a -r` as git counts it: a patch's result and its history entry give the
// counts `git diff --numstat` gives for the same change, where a replace
// that resends unchanged lines (a block replace, a range with unchanged
// ends) is counted by the lines that changed.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import { makeTree } from "./_helpers.ts";

/** An anchor of line `n` of `text`. */
function at(text: string, n: number, block = false): string {
  const line = text.split(/\r?\n/)[n - 1];
  return `${n}:${lineHash(line)}${block ? "*" : ""}`;
}

const MD = "# Title\n\nintro\n\n## A\n\na1\na2\na3\n\n## B\n\nb1\n";
const TXT = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n") +
  "\n";

/** Each case: a file, its content, and the patch's ops as text under `@@ PATH`. */
const CASES: [string, string, string, (t: string) => string][] = [
  [
    "one line of a Markdown section, by its block",
    "doc.md",
    MD,
    (t) => `= ${at(t, 5, true)}\n~## A\n~\n~a1\n~A2\n~a3\n~\n`,
  ],
  [
    "a block replace that shortens the section",
    "doc.md",
    MD,
    (t) => `= ${at(t, 5, true)}\n~## A\n~\n~all of A\n~\n`,
  ],
  [
    "a range with unchanged ends",
    "a.txt",
    TXT,
    (t) => `= ${at(t, 2)}..${at(t, 4)}\n~line 2\n~LINE 3\n~line 4\n`,
  ],
  [
    "one line replaced by three, the first the same",
    "a.txt",
    TXT,
    (t) => `= ${at(t, 6)}\n~line 6\n~new a\n~new b\n`,
  ],
  ["an insert", "a.txt", TXT, (t) => `+ ${at(t, 3)}\n~x\n~y\n`],
  ["a delete", "a.txt", TXT, (t) => `- ${at(t, 4)}..${at(t, 6)}\n`],
  [
    "a move down",
    "a.txt",
    TXT,
    (t) => `m ${at(t, 2)}..${at(t, 3)} > ${at(t, 9)}\n`,
  ],
  ["a copy", "a.txt", TXT, (t) => `c ${at(t, 1)} > ${at(t, 12)}\n`],
  [
    "several ops at once",
    "a.txt",
    TXT,
    (t) => `= ${at(t, 1)}\n~LINE 1\n- ${at(t, 5)}\n+ ${at(t, 10)}\n~added\n`,
  ],
  [
    "a resend of identical lines",
    "a.txt",
    TXT,
    (t) => `= ${at(t, 7)}..${at(t, 8)}\n~line 7\n~line 8\n`,
  ],
  [
    "a CRLF file",
    "w.txt",
    "one\r\ntwo\r\nthree\r\n",
    (t) => `= ${at(t, 1)}..${at(t, 3)}\n~one\n~TWO\n~three\n`,
  ],
  [
    "a whole-section delete by block",
    "doc.md",
    MD,
    (t) => `- ${at(t, 11, true)}\n`,
  ],
];

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8" });
}

describe("+a -r equals git diff --numstat", () => {
  it("for a dozen edits, in the result and in the history", {
    timeout: 120_000,
  }, async () => {
    const tree = await makeTree();
    try {
      git(tree.root, "init", "-q");
      git(tree.root, "config", "user.email", "t@example.com");
      git(tree.root, "config", "user.name", "t");
      git(tree.root, "config", "core.autocrlf", "false");
      const ws = tree.open();
      const seen: string[] = [];
      for (const [name, path, content, ops] of CASES) {
        await writeFile(join(tree.root, path), content);
        git(tree.root, "add", "-A");
        git(tree.root, "commit", "-q", "--allow-empty", "-m", name);
        await ws.read(path);
        const result = await ws.patch(`@@ ${path}\n${ops(content)}`, {
          check: "off",
        });
        const numstat = git(tree.root, "diff", "--numstat", "--", path).trim();
        const [gitAdded, gitRemoved] = numstat === ""
          ? [0, 0]
          : numstat.split("\t").slice(0, 2).map(Number);
        const f = result.files[0];
        assert.deepEqual(
          [f.added, f.removed],
          [gitAdded, gitRemoved],
          `${name}: result +${f.added} -${f.removed}, git +${gitAdded} -${gitRemoved}\n${f.diff}`,
        );
        if (result.entry) {
          const entry = await ws.entry(result.entry);
          assert.deepEqual(
            [entry.files[0].added, entry.files[0].removed],
            [gitAdded, gitRemoved],
            `${name}: history`,
          );
        }
        seen.push(`${name}: +${gitAdded} -${gitRemoved}`);
      }
      assert.equal(seen.length, 12);
    } finally {
      await tree.cleanup();
    }
  });
});
