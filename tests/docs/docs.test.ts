// The documents a newcomer and a contributor read: the README stays a front
// door, every relative link lands, ARCHITECTURE.md covers every folder of
// src/, the safety guide names tests that exist, and the figures the README
// quotes are the ones the last bench run wrote.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, it } from "node:test";
import { REPO_ROOT } from "../_spawn.ts";

const DEADLINE = { timeout: 30_000 };
const read = (path: string): string =>
  readFileSync(join(REPO_ROOT, path), "utf8");

/** The document with its fenced code blocks blanked out (links and headings there are examples). */
function prose(text: string): string {
  return text.replace(
    /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm,
    (block) => block.replace(/[^\n]/g, " "),
  );
}

/** The documents whose links must resolve. */
function documents(): string[] {
  return [
    "README.md",
    "ARCHITECTURE.md",
    "CONTRIBUTING.md",
    ...readdirSync(join(REPO_ROOT, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(path: string): Set<string> {
  const out = new Set<string>();
  for (const m of prose(read(path)).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    out.add(slug(m[1]));
  }
  return out;
}

describe("the README", () => {
  const readme = read("README.md");

  it("is at most 12,000 bytes with at most 12 `##` sections", DEADLINE, () => {
    const bytes = new TextEncoder().encode(readme).length;
    assert.ok(bytes <= 12_000, `README.md is ${bytes} bytes`);
    const sections = prose(readme).match(/^## /gm) ?? [];
    assert.ok(
      sections.length <= 12,
      `README.md has ${sections.length} sections`,
    );
  });

  it(
    "gives the two commands, and how long the tests take, in its first 15 lines",
    DEADLINE,
    () => {
      const head = readme.split("\n").slice(0, 15).join("\n");
      assert.match(head, /^npm ci && npm start\b/m);
      assert.match(head, /^npm ci && npm test\b.*\bminutes\b/m);
      assert.match(head, /LINE:HH\|/);
    },
  );

  it(
    "shows how to point the server at a project, and says what it serves otherwise",
    DEADLINE,
    () => {
      assert.ok(readme.includes("npm start -- --root /path/to/project"));
      assert.ok(readme.includes("`workspace: <abs path>`"));
    },
  );

  it(
    "claims the Node versions package.json allows, and no registry it is not on",
    DEADLINE,
    () => {
      const pkg = JSON.parse(read("package.json"));
      const min = /^>=(\d+)$/.exec(pkg.engines.node)?.[1];
      assert.ok(min, `engines.node is ${pkg.engines.node}`);
      for (const m of readme.matchAll(/Node (\d+)(\+| or later| and later)/g)) {
        assert.equal(m[1], min, `README says "${m[0]}"`);
      }
      assert.doesNotMatch(readme, /\bis on (JSR|npm)\b|\bon JSR\)/);
      assert.match(readme, /not on a registry yet/);
    },
  );

  it(
    "quotes its performance figures from the generated block only, and they are bench/RESULTS.md's",
    DEADLINE,
    () => {
      const block = /<!-- headline:begin -->([\s\S]*?)<!-- headline:end -->/
        .exec(readme)?.[1];
      assert.ok(block, "README.md has the headline block");
      const rows = block.split("\n").filter((l) =>
        l.startsWith("| ") && !/^\| (comparison|-)/.test(l)
      );
      assert.equal(rows.length, 4, "four rows");
      // Cells are compared with their padding collapsed.
      const results = read("bench/RESULTS.md").split("\n").map((l) =>
        l.replace(/ +/g, " ")
      );
      for (const row of rows) {
        const [subject, value, baseline, speed] = row.slice(2, -2).split(" | ")
          .map((c) => c.trim());
        assert.ok(
          results.some((l) =>
            l.includes(`| ${subject}: ${value} `) &&
            l.includes(`| ${baseline} `) &&
            l.includes(`| ${speed} |`)
          ),
          `bench/RESULTS.md has the row ${row}`,
        );
      }
      const outside = readme.replace(block, "");
      assert.doesNotMatch(
        outside,
        /\d(\.\d+)? ?(GB\/s|ms|µs|req\/s|KiB)\b/,
        "no figure typed outside the generated block",
      );
    },
  );
});

describe("the guides", () => {
  it(
    "every relative link of README, ARCHITECTURE.md, CONTRIBUTING.md and docs/ resolves",
    DEADLINE,
    () => {
      const broken: string[] = [];
      for (const doc of documents()) {
        const text = prose(read(doc));
        for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
          const href = m[1];
          if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
          const [path, anchor] = href.split("#");
          const target = path === ""
            ? doc
            : relative(REPO_ROOT, join(REPO_ROOT, dirname(doc), path));
          if (!existsSync(join(REPO_ROOT, target))) {
            broken.push(`${doc}: ${href} (no ${target})`);
            continue;
          }
          if (
            anchor !== undefined && target.endsWith(".md") &&
            !anchorsOf(target).has(anchor)
          ) {
            broken.push(`${doc}: ${href} (no heading #${anchor} in ${target})`);
          }
        }
      }
      assert.deepEqual(broken, []);
    },
  );

  it("the guides the README promises exist", DEADLINE, () => {
    for (
      const f of [
        "library",
        "cli",
        "http",
        "mcp",
        "agent-frameworks",
        "safety",
        "dependencies",
        "benchmarks",
      ]
    ) {
      assert.ok(existsSync(join(REPO_ROOT, "docs", `${f}.md`)), f);
    }
  });

  it(
    "ARCHITECTURE.md names every folder of src/ and holds the layer diagram",
    DEADLINE,
    () => {
      const arch = read("ARCHITECTURE.md");
      const folders = readdirSync(join(REPO_ROOT, "src")).filter((f) =>
        statSync(join(REPO_ROOT, "src", f)).isDirectory()
      );
      assert.ok(folders.length > 10);
      for (const f of folders) {
        assert.ok(
          arch.includes(`src/${f}/`),
          `ARCHITECTURE.md names src/${f}/`,
        );
      }
      assert.match(arch, /<!-- layers:begin -->[\s\S]+<!-- layers:end -->/);
    },
  );

  it("every test the safety guide cites exists", DEADLINE, () => {
    const safety = read("docs/safety.md");
    const cited = [...safety.matchAll(/`(tests\/[^`\s]+)`/g)].map((m) => m[1]);
    assert.ok(cited.length >= 20, "the guide cites its tests");
    for (const path of cited) {
      assert.ok(existsSync(join(REPO_ROOT, path)), `${path} exists`);
    }
  });

  it("the MCP guide says what one-shot clients need", DEADLINE, () => {
    const mcp = read("docs/mcp.md");
    assert.match(mcp, /--session/);
    assert.match(mcp, /Hashline-Session/);
    assert.match(mcp, /Inspector/);
  });

  it("the HTTP guide lists every field of the patch answer", DEADLINE, () => {
    const http = read("docs/http.md");
    for (
      const field of [
        "dryRun",
        "files",
        "summary",
        "rebased",
        "warnings",
        "checks",
        "entry",
      ]
    ) {
      assert.match(http, new RegExp(`^\\| \`${field}\` +\\|`, "m"), field);
    }
  });
});
