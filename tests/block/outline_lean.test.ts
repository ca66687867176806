// An outline read in the lean form (docs/reads.md, "Outline reads" and "Lean reads"): shown lines as `LINE|content`,
// markers unchanged, and an edit by line number afterwards, through the CLI,
// HTTP and MCP.
import assert from "node:assert/strict";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { hashline } from "../cli/_cli.ts";
import { call } from "../http/_helpers.ts";
import { connectHttp } from "../mcp/_client.ts";
import { TS } from "./_files.ts";

const T = { timeout: 60_000 };

/** The outline of TS, lean: its heads as `LINE|content`, its hidden runs as markers. */
const LEAN_OUTLINE = [
  '1|import { x } from "y";',
  "…2–3",
  "4|export function inc(a: number): number {",
  "…5–7",
  "8|@Injectable()",
  "9|export class Service {",
  "10|  get(id: string) {",
  "…11–13",
  "14|  put(id: string) {",
  "…15–19",
].join("\n");

const EDITED = TS.replace('from "y"', 'from "z"');

async function tree() {
  const dir = await realpath(
    await mkdtemp(join(tmpdir(), "hashline-outline-lean-")),
  );
  await writeFile(join(dir, "s.ts"), TS);
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

describe("outline reads in the lean form", () => {
  it(
    "CLI read --outline --lean shows LINE|content heads; a bare-number edit of a shown line lands, of a hidden line is NOT_READ",
    T,
    async () => {
      const t = await tree();
      try {
        const run = (args: string[], input?: string) =>
          hashline(args, {
            cwd: t.dir,
            env: { HASHLINE_STORE: join(t.dir, ".state") },
            input,
          });
        const read = await run(["read", "--outline", "--lean", "s.ts"]);
        assert.equal(read.code, 0, read.stderr);
        assert.equal(read.stdout.trimEnd(), `@@ s.ts\n${LEAN_OUTLINE}`);
        const hidden = await run(
          ["patch", "-", "--json"],
          "@@ s.ts\n= 5\n~  return a + 2;\n",
        );
        assert.equal(hidden.code, 1, hidden.stdout);
        assert.equal(JSON.parse(hidden.stdout).error.code, "NOT_READ");
        assert.equal(await readFile(join(t.dir, "s.ts"), "utf8"), TS);
        const ok = await run(
          ["patch", "-"],
          '@@ s.ts\n= 1\n~import { x } from "z";\n',
        );
        assert.equal(ok.code, 0, ok.stderr);
        assert.match(ok.stdout, /^1\|import \{ x \} from "z";$/m);
        assert.equal(await readFile(join(t.dir, "s.ts"), "utf8"), EDITED);
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    "HTTP and MCP: outline with anchors lean is lean, and a refusal after it shows lean fresh lines",
    T,
    async () => {
      const t = await tree();
      const app = createApp({ root: t.dir, stateDir: join(t.dir, ".state") });
      const mcp = await connectHttp("http://localhost/mcp", { app });
      try {
        const http = await call(app, "POST", "/v1/files/read", {
          path: "s.ts",
          outline: true,
          anchors: "lean",
        }, { "hashline-session": "outline-lean" });
        assert.equal(http.status, 200, JSON.stringify(http.body));
        assert.equal(http.body.text, LEAN_OUTLINE);
        assert.equal(http.body.outline, true);
        const tool = await mcp.tool("read_file", {
          path: "s.ts",
          outline: true,
          anchors: "lean",
        });
        assert.equal(tool.isError, false, tool.text);
        assert.ok(tool.text.startsWith(LEAN_OUTLINE), tool.text);
        const drifted = TS.replace('from "y"', 'from "w"');
        await writeFile(join(t.dir, "s.ts"), drifted);
        const stale = await call(app, "POST", "/v1/files/patch", {
          patch: '@@ s.ts\n= 1\n~import { x } from "z";',
        }, { "hashline-session": "outline-lean" });
        assert.equal(stale.status, 409, JSON.stringify(stale.body));
        assert.equal(stale.body.error.code, "STALE_ANCHOR");
        assert.match(
          stale.body.error.message,
          /^1\|import \{ x \} from "w";$/m,
        );
        assert.equal(await readFile(join(t.dir, "s.ts"), "utf8"), drifted);
      } finally {
        await mcp.close();
        await t.cleanup();
      }
    },
  );
});
