// The guides list what exists: every route the app registers is in
// docs/http.md, every tool the registry can offer is in docs/mcp.md, every
// field of the read request is in the read route's row, and the README's
// install line names every optional peer of package.json. (Commands and
// flags of the CLI are checked against docs/cli.md by
// tests/cli/readme.test.ts.)
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createApp } from "../../src/http/app.ts";
import {
  type RegisteredRoute,
  routeTable,
} from "../../src/http/_route_table.ts";
import { createMemoryStore } from "../../src/store/memory_store.ts";
import { createToolRegistry, TOOL_SETS } from "../../src/tools/mod.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const read = (path: string) => readFile(join(REPO, path), "utf8");
const DEADLINE = { timeout: 30_000 };

describe("the guides list what exists", () => {
  it("docs/http.md names every route the app registers", DEADLINE, async () => {
    const http = await read("docs/http.md");
    const dir = await mkdtemp(join(tmpdir(), "hashline-surface-"));
    const app = createApp({ root: dir, stateDir: join(dir, ".hashline") });
    const routes = (app as unknown as { routes: RegisteredRoute[] }).routes;
    await rm(dir, { recursive: true, force: true });
    const listed = routeTable(routes).list.split(", ");
    assert.ok(listed.includes("POST /v1/files/search"), listed.join(", "));
    for (const route of listed) {
      assert.ok(http.includes(`\`${route}\``), `docs/http.md lists ${route}`);
    }
  });

  it(
    "docs/http.md's read row names every field of the read request",
    DEADLINE,
    async () => {
      const http = await read("docs/http.md");
      const row = http.split("\n").find((l) =>
        l.startsWith("| `POST /v1/files/read`")
      );
      assert.ok(row);
      for (const field of ["path", "offset", "limit", "outline", "anchors"]) {
        assert.match(row, new RegExp(`\\b${field}\\??[,} ]`), field);
      }
    },
  );

  it(
    "docs/mcp.md names every tool the registry can offer",
    DEADLINE,
    async () => {
      const mcp = await read("docs/mcp.md");
      const names = new Set<string>();
      const dir = await mkdtemp(join(tmpdir(), "hashline-surface-"));
      for (const editFormat of ["hashline", "str_replace"] as const) {
        const registry = createToolRegistry({
          workspace: openWorkspace(dir, {
            stateDir: join(dir, ".hashline"),
            persistSessions: false,
          }),
          store: createMemoryStore(),
          tools: [...TOOL_SETS],
          editFormat,
        });
        for (const t of registry.tools) names.add(t.name);
      }
      await rm(dir, { recursive: true, force: true });
      assert.ok(names.has("search_files"));
      for (const name of names) {
        assert.ok(mcp.includes(`\`${name}\``), `docs/mcp.md names ${name}`);
      }
    },
  );

  it(
    "the README installs the package with every optional peer",
    DEADLINE,
    async () => {
      const readme = await read("README.md");
      const pkg = JSON.parse(await read("package.json"));
      const line = readme.split("\n").find((l) =>
        l.startsWith("npm install @hashline/kit ") &&
        l.includes("optional peer")
      );
      assert.ok(line, "the README has the line");
      // The line may group names with shell braces: a{b,c} is ab and ac.
      const words = line.split("#")[0].trim().split(/\s+/).flatMap((w) => {
        const m = /^(.*)\{([^}]*)\}(.*)$/.exec(w);
        return m ? m[2].split(",").map((x) => m[1] + x + m[3]) : [w];
      });
      for (const [peer, meta] of Object.entries(pkg.peerDependenciesMeta)) {
        if (!(meta as { optional?: boolean }).optional) continue;
        assert.ok(words.includes(peer), `the README line installs ${peer}`);
      }
    },
  );
});
