import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { collect, startTs } from "../_spawn.ts";
import { createApp } from "../../src/http/app.ts";
import { lineHash } from "../../src/hash/mod.ts";
import { hashline, type TempDir, tempDir } from "./_cli.ts";

const CLI = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const REPO = fileURLToPath(new URL("../../", import.meta.url));
const DEADLINE = { timeout: 120_000 };

const SECRET = "TOKEN=abc123\nOTHER=1\n";

describe("--deny on the command line", () => {
  let t: TempDir;
  let env: Record<string, string>;
  before(async () => {
    t = await tempDir({ "app.ts": "let x = 0;\n", "conf/.env": SECRET });
    env = { HASHLINE_STORE: join(t.dir, ".state") };
  });
  after(() => t.cleanup());

  const json = (stdout: string) => JSON.parse(stdout);

  it(
    "refuses reads and edits of a denied path, repeatable, and leaves the bytes alone",
    DEADLINE,
    async () => {
      const read = await hashline(
        ["read", "conf/.env", "--deny", "*.md", "--deny", "**/*.env", "--json"],
        { cwd: t.dir, env },
      );
      assert.equal(read.code, 1, read.stderr);
      const body = json(read.stdout);
      assert.equal(body.ok, false);
      assert.equal(body.error.code, "DENIED");
      assert.match(body.error.message, /\*\*\/\*\.env/);
      const patch = await hashline(
        ["patch", "--deny", "**/*.env", "--json"],
        {
          cwd: t.dir,
          env,
          input: `@@ conf/.env\n= 1:${
            lineHash("TOKEN=abc123")
          }\n~TOKEN=stolen\n`,
        },
      );
      assert.equal(patch.code, 1, patch.stderr);
      assert.equal(json(patch.stdout).error.code, "DENIED");
      assert.equal(await readFile(join(t.dir, "conf/.env"), "utf8"), SECRET);
      // The rule covers only what it names.
      const other = await hashline(["read", "app.ts", "--deny", "**/*.env"], {
        cwd: t.dir,
        env,
      });
      assert.equal(other.code, 0, other.stderr);
      assert.match(other.stdout, /^1:[0-9a-f]{2}\|let x = 0;$/m);
    },
  );

  it(
    "show withholds a denied file's lines, log keeps the counts, undo is DENIED",
    DEADLINE,
    async () => {
      // An edit made where nothing is denied.
      const read = await hashline(["read", "conf/.env"], { cwd: t.dir, env });
      assert.equal(read.code, 0, read.stderr);
      const edit = await hashline(["patch", "--json"], {
        cwd: t.dir,
        env,
        input: `@@ conf/.env\n= 1:${
          lineHash("TOKEN=abc123")
        }\n~TOKEN=rotated\n`,
      });
      assert.equal(edit.code, 0, edit.stderr);
      const id: string = json(edit.stdout).entry;
      assert.match(id, /^h_\d+$/);
      const after = await readFile(join(t.dir, "conf/.env"), "utf8");
      assert.equal(after, "TOKEN=rotated\nOTHER=1\n");

      const open = await hashline(["show", id], { cwd: t.dir, env });
      assert.equal(open.code, 0, open.stderr);
      assert.match(open.stdout, /TOKEN=abc123/);

      const shown = await hashline(["show", id, "--deny", "**/*.env"], {
        cwd: t.dir,
        env,
      });
      assert.equal(shown.code, 0, shown.stderr);
      assert.doesNotMatch(shown.stdout, /TOKEN=/);
      assert.match(shown.stdout, /lines withheld.*deny: \*\*\/\*\.env/);
      const shownJson = await hashline(
        ["show", id, "--deny", "**/*.env", "--json"],
        { cwd: t.dir, env },
      );
      assert.doesNotMatch(shownJson.stdout, /TOKEN=/);

      const log = await hashline(["log", "--deny", "**/*.env", "--json"], {
        cwd: t.dir,
        env,
      });
      assert.equal(log.code, 0, log.stderr);
      const listed = json(log.stdout).entries.find((e: { id: string }) =>
        e.id === id
      );
      assert.deepEqual(
        listed.files.map((f: { added: number; removed: number }) => [
          f.added,
          f.removed,
        ]),
        [[1, 1]],
      );

      const undo = await hashline(
        ["undo", id, "--deny", "**/*.env", "--json"],
        {
          cwd: t.dir,
          env,
        },
      );
      assert.equal(undo.code, 1, undo.stderr);
      assert.equal(json(undo.stdout).error.code, "DENIED");
      assert.equal(await readFile(join(t.dir, "conf/.env"), "utf8"), after);
    },
  );
});

describe("serve --deny and --check", () => {
  let t: TempDir;
  before(async () => {
    t = await tempDir({
      "app.ts": "export const x = 1;\n",
      "conf/.env": SECRET,
    });
  });
  after(() => t.cleanup());

  it(
    "the served workspace denies the globs and refuses a broken edit under --check refuse",
    DEADLINE,
    async () => {
      const child = startTs(CLI, [
        "serve",
        "--port",
        "0",
        "--root",
        t.dir,
        "--deny",
        "**/*.env",
        "--check",
        "refuse",
      ], { cwd: REPO, env: { HASHLINE_STORE: join(t.dir, ".state") } });
      const done = collect(child);
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let seen = "";
          child.stdout?.on("data", (d: string) => {
            seen += d;
            const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
            if (m) resolve(m[1]);
          });
          child.on("close", () => reject(new Error(`exited: ${seen}`)));
        });
        const post = (path: string, body: unknown) =>
          fetch(`${url}${path}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          });
        const denied = await post("/v1/files/read", { path: "conf/.env" });
        assert.equal(denied.status, 403);
        assert.equal((await denied.json()).error.code, "DENIED");

        const read = await post("/v1/files/read", { path: "app.ts" });
        assert.equal(read.status, 200);
        await read.body?.cancel();
        const broken = await post("/v1/files/patch", {
          patch: `@@ app.ts\n= 1:${
            lineHash("export const x = 1;")
          }\n~export const x = (1;\n`,
        });
        assert.equal(broken.status, 409);
        assert.equal((await broken.json()).error.code, "SYNTAX");
        assert.equal(
          await readFile(join(t.dir, "app.ts"), "utf8"),
          "export const x = 1;\n",
        );
        assert.equal(await readFile(join(t.dir, "conf/.env"), "utf8"), SECRET);
      } finally {
        child.kill("SIGTERM");
        await done;
      }
    },
  );
});

describe("createApp deny and check options", () => {
  it(
    "refuses a bad deny list or check mode at once, with a clear message",
    DEADLINE,
    () => {
      assert.throws(
        () => createApp({ deny: [""] }),
        (e: unknown) =>
          e instanceof TypeError && /deny must be a list/.test(e.message),
      );
      assert.throws(
        () => createApp({ check: "strict" as never }),
        (e: unknown) =>
          e instanceof TypeError &&
          /check must be one of "warn"/.test(e.message),
      );
    },
  );
});
