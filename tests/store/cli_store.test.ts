import assert from "node:assert/strict";
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { main } from "../../src/cli/main.ts";
import { lineHash } from "../../src/hash/fnv.ts";
import { runTs } from "../_spawn.ts";
import { expectedRef } from "./_suite.ts";

const CLI = new URL("../../src/cli/main.ts", import.meta.url).pathname;
const SOURCE = "alpha\nbeta\ngamma\n";

interface Ran {
  code: number;
  out: string;
  err: string;
  json: Record<string, unknown> & { error?: { code: string; message: string } };
}

/** Runs `hashline store …` in this process from `dir`, with the store in `dir/.hashline`. */
async function store(
  dir: string,
  words: string[],
  flags: Record<string, string | true> = {},
): Promise<Ran> {
  let out = "";
  let err = "";
  const args = ["store", ...words];
  for (const [name, value] of Object.entries(flags)) {
    args.push(value === true ? `--${name}` : `--${name}=${value}`);
  }
  const code = await main(args, {
    cwd: dir,
    env: (name) =>
      name === "HASHLINE_STORE" ? join(dir, ".hashline") : undefined,
    stdout: (t) => Promise.resolve(void (out += t)),
    stderr: (t) => Promise.resolve(void (err += t)),
  });
  let json = {} as Ran["json"];
  if (flags.json === true) {
    assert.doesNotMatch(
      out.trimEnd(),
      /\n/,
      "--json prints exactly one document",
    );
    json = JSON.parse(out);
  }
  // Text output is compared without the newline that ends it.
  return {
    code,
    out: out.replace(/\n$/, ""),
    err: err.replace(/\n$/, ""),
    json,
  };
}

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "hashline-cli-store-"));
  try {
    await writeFile(join(dir, "a.txt"), SOURCE);
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("hashline store (in process)", () => {
  it("put and import print ref and handle; --json gives { ok, ref, handle }", () =>
    withDir(async (dir) => {
      const ref = expectedRef(SOURCE);
      const handle = "p_" + ref.slice(7, 19);
      const text = await store(dir, ["put", join(dir, "a.txt")]);
      assert.equal(text.code, 0);
      assert.equal(text.out, `${ref} ${handle}`);
      const json = await store(dir, ["import", join(dir, "a.txt")], {
        json: true,
      });
      assert.deepEqual(json.json, { ok: true, ref, handle });
    }));

  it("source reads a window or a query; --json carries found, code, offset, nextOffset, totalChars", () =>
    withDir(async (dir) => {
      const { json: put } = await store(dir, ["put", join(dir, "a.txt")], {
        json: true,
      });
      const r = await store(dir, ["source", put.handle as string], {
        json: true,
        query: "gamma",
      });
      assert.equal(r.code, 0);
      assert.deepEqual(r.json, {
        ok: true,
        ref: put.ref,
        handle: put.handle,
        found: true,
        code: SOURCE,
        offset: 0,
        nextOffset: null,
        totalChars: SOURCE.length,
      });
      const w = await store(dir, ["source", put.handle as string], {
        json: true,
        offset: "6",
        limit: "4",
      });
      assert.equal(w.json.code, "beta");
      assert.equal(w.json.nextOffset, 10);
      const miss = await store(dir, ["source", put.handle as string], {
        query: "delta",
      });
      assert.equal(miss.code, 0);
      assert.match(miss.err, /No match/);
      const tooBig = await store(dir, ["source", put.handle as string], {
        json: true,
        limit: "16001",
      });
      assert.equal(tooBig.code, 2);
      assert.equal(tooBig.json.error?.code, "BAD_INPUT");
    }));

  it("edit makes a new revision and prints the diff; a refused edit exits 1 with its code", () =>
    withDir(async (dir) => {
      const { json: put } = await store(dir, ["put", join(dir, "a.txt")], {
        json: true,
      });
      const e = await store(dir, ["edit", put.handle as string], {
        json: true,
        old: "beta",
        new: "BETA",
      });
      assert.equal(e.code, 0);
      assert.equal(e.json.ok, true);
      assert.equal(e.json.ref, expectedRef("alpha\nBETA\ngamma\n"));
      assert.equal(e.json.parentRef, put.ref);
      assert.match(e.json.diff as string, /^-beta\n\+BETA$/m);
      assert.equal(e.json.diffTruncated, false);
      const text = await store(dir, ["edit", put.handle as string], {
        old: "a\n",
        new: "A\n",
        "replace-all": true,
      });
      assert.equal(text.code, 0);
      assert.match(text.out, /^New revision p_[0-9a-f]{12} /);
      const none = await store(dir, ["edit", put.handle as string], {
        json: true,
        old: "delta",
        new: "x",
      });
      assert.equal(none.code, 1);
      assert.equal(none.json.ok, false);
      assert.equal(none.json.error?.code, "NO_MATCH");
      const many = await store(dir, ["edit", put.handle as string], {
        old: "a",
        new: "x",
      });
      assert.equal(many.code, 1);
      assert.match(many.err, /matches \d+ times/);
      const usage = await store(dir, ["edit", put.handle as string], {
        old: "beta",
      });
      assert.equal(usage.code, 2);
      assert.match(usage.err, /--new/);
    }));

  it("patch applies a hashline patch from a file", () =>
    withDir(async (dir) => {
      const { json: put } = await store(dir, ["put", join(dir, "a.txt")], {
        json: true,
      });
      await writeFile(join(dir, "p.txt"), `= 2:${lineHash("beta")}\n~BETA\n`);
      const r = await store(dir, [
        "patch",
        put.handle as string,
        join(dir, "p.txt"),
      ], { json: true });
      assert.equal(r.code, 0);
      assert.equal(r.json.ref, expectedRef("alpha\nBETA\ngamma\n"));
      await writeFile(
        join(dir, "bad.txt"),
        `= 2:${lineHash("beta") === "00" ? "01" : "00"}\n~BETA\n`,
      );
      const bad = await store(dir, [
        "patch",
        put.handle as string,
        join(dir, "bad.txt"),
      ], { json: true });
      assert.equal(bad.code, 1);
      assert.equal(bad.json.ok, false);
    }));

  it("export and get --out write a new file and refuse an existing one, leaving it as it was", () =>
    withDir(async (dir) => {
      const { json: put } = await store(dir, ["put", join(dir, "a.txt")], {
        json: true,
      });
      const out = join(dir, "out.txt");
      const r = await store(dir, ["export", put.handle as string], {
        json: true,
        out,
      });
      assert.deepEqual(r.json, {
        ok: true,
        path: out,
        ref: put.ref,
        bytes: SOURCE.length,
      });
      assert.equal(await readFile(out, "utf8"), SOURCE);
      await writeFile(out, "keep me");
      for (
        const words of [["export", put.handle as string], [
          "get",
          put.handle as string,
        ]]
      ) {
        const again = await store(dir, words, { json: true, out });
        assert.equal(again.code, 1);
        assert.equal(again.json.error?.code, "EXISTS");
        assert.equal(await readFile(out, "utf8"), "keep me");
      }
      const g = await store(dir, ["get", put.handle as string], {
        out: join(dir, "g.txt"),
      });
      assert.equal(g.code, 0);
      assert.equal(await readFile(join(dir, "g.txt"), "utf8"), SOURCE);
      const missing = await store(dir, ["export", put.handle as string], {
        json: true,
      });
      assert.equal(missing.code, 2);
    }));

  it(
    "export and get --out write as the workspace does: .git/, outside the root and --deny refused, nothing written; an export is a history entry",
    {
      timeout: 60_000,
    },
    () =>
      withDir(async (dir) => {
        const { json: put } = await store(dir, ["put", join(dir, "a.txt")], {
          json: true,
        });
        await mkdir(join(dir, ".git", "hooks"), { recursive: true });
        const outside = await mkdtemp(join(tmpdir(), "hashline-cli-outside-"));
        try {
          const refused: [string, string, Record<string, string>][] = [
            [join(dir, ".git", "hooks", "pre-commit"), "DENIED", {}],
            [join(outside, "out.txt"), "OUTSIDE_ROOT", {}],
            [join(dir, "secret.env"), "DENIED", { deny: "*.env" }],
          ];
          for (const [out, code, extra] of refused) {
            for (const verb of ["export", "get"]) {
              const r = await store(dir, [verb, put.handle as string], {
                json: true,
                out,
                ...extra,
              });
              assert.equal(r.code, 1, `${verb} ${out}`);
              assert.equal(r.json.error?.code, code, r.out);
              await assert.rejects(readFile(out), { code: "ENOENT" });
            }
          }
          assert.deepEqual(await readdir(join(dir, ".git", "hooks")), []);
          assert.deepEqual(await readdir(outside), []);
        } finally {
          await rm(outside, { recursive: true, force: true });
        }
        const r = await store(dir, ["export", put.handle as string], {
          json: true,
          out: join(dir, "sub", "b.txt"),
        });
        assert.equal(r.code, 0, r.err);
        assert.equal(await readFile(join(dir, "sub", "b.txt"), "utf8"), SOURCE);
        let out = "";
        const code = await main(["log", "--json"], {
          cwd: dir,
          env: (name) =>
            name === "HASHLINE_STORE" ? join(dir, ".hashline") : undefined,
          stdout: (t) => Promise.resolve(void (out += t)),
          stderr: () => Promise.resolve(),
        });
        assert.equal(code, 0);
        const entries = JSON.parse(out).entries;
        assert.equal(entries.length, 1);
        assert.equal(entries[0].door, "cli");
        assert.deepEqual(entries[0].files, [
          { path: "sub/b.txt", added: 3, removed: 0, created: true },
        ]);
      }),
  );

  it("get --json gives the source; history and resolve list the lineage", () =>
    withDir(async (dir) => {
      const { json: put } = await store(dir, ["put", join(dir, "a.txt")], {
        json: true,
      });
      const g = await store(dir, ["get", put.ref as string], { json: true });
      assert.deepEqual(g.json, {
        ok: true,
        ref: put.ref,
        handle: put.handle,
        source: SOURCE,
      });
      const e = await store(dir, ["edit", put.handle as string], {
        json: true,
        old: "gamma",
        new: "GAMMA",
      });
      const h = await store(dir, ["history", e.json.handle as string], {
        json: true,
      });
      const history = h.json.history as {
        ref: string;
        op: string;
        parentRef: string | null;
      }[];
      assert.deepEqual(history.map((x) => [x.ref, x.op, x.parentRef]), [
        [e.json.ref, "edit", put.ref],
        [put.ref, "put", null],
      ]);
      const text = await store(dir, ["history", e.json.handle as string]);
      assert.equal(text.out.split("\n").length, 2);
      const res = await store(dir, ["resolve", put.ref as string], {
        json: true,
      });
      assert.deepEqual(res.json, {
        ok: true,
        ref: put.ref,
        handle: put.handle,
      });
    }));

  it("unknown handles exit 1 naming put; bad usage exits 2", () =>
    withDir(async (dir) => {
      const unknown = await store(dir, ["get", "p_0123456789ab"], {
        json: true,
      });
      assert.equal(unknown.code, 1);
      assert.equal(unknown.json.error?.code, "UNKNOWN_HANDLE");
      assert.match(unknown.json.error?.message ?? "", /put/);
      for (
        const words of [
          [],
          ["frobnicate"],
          ["toString"],
          ["get"],
          ["get", "a", "b"],
          ["get", "not-a-ref"],
          ["put"],
        ]
      ) {
        const r = await store(dir, words, { json: true });
        assert.equal(r.code, 2, words.join(" "));
        assert.equal(r.json.ok, false);
        assert.equal(r.json.error?.code, "BAD_INPUT");
      }
      const missingFile = await store(dir, ["put", join(dir, "none.txt")]);
      assert.equal(missingFile.code, 1);
    }));
});

describe("hashline store (as a process)", () => {
  it(
    "put then get prints the exact bytes; HASHLINE_STORE moves the store; exit codes 0 and 1",
    { timeout: 60_000 },
    () =>
      withDir(async (dir) => {
        const env = { HASHLINE_STORE: join(dir, "state") };
        const exact = "no final newline ✓";
        await writeFile(join(dir, "b.txt"), exact);
        const put = await runTs(CLI, [
          "store",
          "put",
          join(dir, "b.txt"),
          "--json",
        ], { env });
        assert.equal(put.code, 0, put.stderr);
        const { ok, ref, handle } = JSON.parse(put.stdout);
        assert.equal(ok, true);
        assert.equal(ref, expectedRef(exact));
        const [get, unknown] = await Promise.all([
          runTs(CLI, ["store", "get", handle], { env }),
          runTs(CLI, ["--json", "store", "get", "p_0123456789ab"], { env }),
        ]);
        assert.equal(get.code, 0, get.stderr);
        assert.equal(get.stdout, exact);
        assert.equal(unknown.code, 1);
        assert.equal(JSON.parse(unknown.stdout).error.code, "UNKNOWN_HANDLE");
      }),
  );
});
