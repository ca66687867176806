import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { COMMANDS, COMMON_FLAGS, ENVIRONMENT } from "../../src/cli/_table.ts";
import { VERSION } from "../../src/cli/_version.ts";
import { hashline, type TempDir, tempDir } from "./_cli.ts";

describe(
  "hashline arguments, help and exit codes",
  () => {
    let t: TempDir;
    before(async () => {
      t = await tempDir({ "f.txt": "alpha\nbeta\ngamma\n" });
    });
    after(() => t.cleanup());

    it(
      "--help and -h list every command, common flag and environment variable; exit 0",
      { timeout: 120_000 },
      async () => {
        const [long, short, word] = await Promise.all([
          hashline(["--help"], { cwd: t.dir }),
          hashline(["-h"], { cwd: t.dir }),
          hashline(["help"], { cwd: t.dir }),
        ]);
        for (const r of [long, short, word]) {
          assert.equal(r.code, 0, r.stderr);
          assert.equal(r.stdout, long.stdout);
        }
        for (const c of COMMANDS) {
          assert.match(
            long.stdout,
            new RegExp(`^  ${c.name} `, "m"),
          );
        }
        for (const name of Object.keys(COMMON_FLAGS)) {
          assert.match(
            long.stdout,
            new RegExp(`--${name}\\b`),
          );
        }
        for (const e of ENVIRONMENT) {
          assert.match(
            long.stdout,
            new RegExp(`^  ${e.name} `, "m"),
          );
        }
        assert.match(
          long.stdout,
          /Exit codes: 0 done, 1 refused .*, 2 bad usage/,
        );
      },
    );

    it(
      "COMMAND --help shows that command's usage and every flag it takes, wherever --help stands",
      { timeout: 120_000 },
      async () => {
        const runs = await Promise.all(
          COMMANDS.map((c) =>
            hashline([...c.name.split(" "), "--help"], { cwd: t.dir })
          ),
        );
        COMMANDS.forEach((c, i) => {
          const r = runs[i];
          assert.equal(r.code, 0, `${c.name}: ${r.stderr}`);
          assert.match(
            r.stdout,
            new RegExp(`^Usage: hashline ${c.name}\\b`),
            c.name,
          );
          for (const name of Object.keys(c.flags)) {
            assert.match(
              r.stdout,
              new RegExp(`^  --${name}\\b`, "m"),
              `${c.name} --${name}`,
            );
          }
        });
        const [before, help, group] = await Promise.all([
          hashline(["--help", "read"], { cwd: t.dir }),
          hashline(["help", "store", "put"], { cwd: t.dir }),
          hashline(["store", "--help"], { cwd: t.dir }),
        ]);
        assert.match(
          before.stdout,
          /^Usage: hashline read PATH \[--offset N\] \[--limit N\] \[--outline\] \[--lean\]\n/,
        );
        assert.match(help.stdout, /^Usage: hashline store put FILE\|-\n/);
        assert.equal(group.code, 0);
        for (const c of COMMANDS.filter((c) => c.name.startsWith("store "))) {
          assert.match(group.stdout, new RegExp(`^  ${c.name} `, "m"));
        }
      },
    );

    it("--version prints the version of deno.json, as text or JSON", {
      timeout: 120_000,
    }, async () => {
      const deno = JSON.parse(
        await readFile(new URL("../../deno.json", import.meta.url), "utf8"),
      );
      assert.equal(VERSION, deno.version, "run deno run -A scripts/version.ts");
      const [text, json] = await Promise.all([
        hashline(["--version"], { cwd: t.dir }),
        hashline(["--version", "--json"], { cwd: t.dir }),
      ]);
      assert.equal(text.code, 0);
      assert.equal(text.stdout, `hashline ${deno.version}\n`);
      assert.deepEqual(JSON.parse(json.stdout), {
        ok: true,
        version: deno.version,
      });
    });

    it(
      "names unknown flags as unknown and missing values as missing; exit 2, nothing written",
      { timeout: 120_000 },
      async () => {
        const cases: [string[], RegExp][] = [
          [
            ["read", "f.txt", "--bogus"],
            /^unknown flag --bogus for read; see hashline read --help\n$/,
          ],
          [
            ["--bogus", "read", "f.txt"],
            /^unknown flag --bogus for read; see hashline read --help\n$/,
          ],
          [
            ["read", "f.txt", "-x"],
            /^unknown flag -x for read; see hashline read --help\n$/,
          ],
          [
            ["read", "f.txt", "--query", "q"],
            /^unknown flag --query for read;/,
          ],
          [
            ["--bogus", "1", "read", "f.txt"],
            /^unknown flag --bogus; see hashline --help\n$/,
          ],
          [
            ["read", "f.txt", "--offset"],
            /^flag --offset of read needs a value \(--offset N\); see hashline read --help\n$/,
          ],
          [
            ["read", "f.txt", "--offset", "--limit", "2"],
            /^flag --offset of read needs a value \(--offset N\);/,
          ],
          [
            ["read", "f.txt", "--offset", "-3"],
            /needs a value .*write --offset=-3/,
          ],
          [
            ["read", "f.txt", "--offset", "two"],
            /^flag --offset of read must be a whole number ≥ 1, got "two"/,
          ],
          [
            ["read", "f.txt", "--json=yes"],
            /^flag --json of read takes no value/,
          ],
          [["read"], /^read takes PATH, got none\. Usage: hashline read PATH/],
          [["read", "a", "b"], /^read takes PATH, got "a" "b"/],
          [
            ["store", "edit", "p_0123456789ab", "--old", "x"],
            /^store edit needs --new TEXT;/,
          ],
          [
            ["store"],
            /^no store command given: use one of put, import, read, /,
          ],
          [["store", "frob"], /^unknown command "store frob"/],
          [["frob"], /^unknown command "frob"; see hashline --help\n$/],
          [[], /^no command given; see hashline --help\n$/],
          [["serve", "extra"], /^serve takes no arguments, got "extra"/],
        ];
        const runs = await Promise.all(
          cases.map(([args]) => hashline(args, { cwd: t.dir })),
        );
        cases.forEach(([args, message], i) => {
          assert.equal(runs[i].code, 2, args.join(" "));
          assert.match(runs[i].stderr, message, args.join(" "));
          assert.equal(runs[i].stdout, "", args.join(" "));
        });
        const json = await hashline(["read", "f.txt", "--bogus", "--json"], {
          cwd: t.dir,
        });
        assert.equal(json.code, 2);
        assert.deepEqual(JSON.parse(json.stdout), {
          ok: false,
          error: {
            code: "BAD_INPUT",
            message: "unknown flag --bogus for read; see hashline read --help",
          },
        });
        assert.equal(
          await readFile(`${t.dir}/f.txt`, "utf8"),
          "alpha\nbeta\ngamma\n",
        );
      },
    );

    it("takes flags before or after the command; exit 0 done, 1 refused", {
      timeout: 120_000,
    }, async () => {
      const [afterCmd, beforeCmd, refused] = await Promise.all([
        hashline(["read", "f.txt", "--limit", "1", "--json"], { cwd: t.dir }),
        hashline(["--json", "--limit=1", "read", "f.txt"], { cwd: t.dir }),
        hashline(["--json", "read", "missing.txt"], { cwd: t.dir }),
      ]);
      assert.equal(afterCmd.code, 0, afterCmd.stderr);
      assert.equal(afterCmd.stdout, beforeCmd.stdout);
      assert.equal(JSON.parse(afterCmd.stdout).endLine, 1);
      assert.equal(refused.code, 1);
      assert.equal(JSON.parse(refused.stdout).error.code, "NOT_FOUND");
    });
  },
);
