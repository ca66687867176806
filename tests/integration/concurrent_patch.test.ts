/**
 * Writers that overlap: separate processes with their own workspaces (and
 * state folders), concurrent patches in one process, and concurrent HTTP
 * requests to one server. Every acknowledged edit is in the file exactly
 * once, nothing unacknowledged is, and of N patches built from one read
 * exactly one lands.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { PatchRefusedError } from "../../src/errors.ts";
import { startServer } from "../../src/http/server.ts";
import { collect, startTs } from "../_spawn.ts";
import { leftovers, makeTree, type Tree } from "../workspace/_helpers.ts";
import { anchorAt, tally, typedCode, unlike } from "./_util.ts";

const CHILD = new URL("./_patch_loop_child.ts", import.meta.url).pathname;

/** Processes, attempts per process. */
const PROCESSES = 4;
const ATTEMPTS = 80;

/** Patches built from one read, and rounds of them. */
const RACERS = 8;
const ROUNDS = 60;
const HTTP_RACERS = 6;
const HTTP_ROUNDS = 40;

/** Concurrent appends per round, and rounds. */
const APPENDERS = 10;
const APPEND_ROUNDS = 25;

interface Outcome {
  ok: boolean;
  line?: string;
  name?: string;
  code?: string;
  message?: string;
}

/** Lines of the file after the counter line. */
async function body(path: string): Promise<{ count: number; lines: string[] }> {
  const text = await readFile(path, "utf8");
  const [head, ...lines] = text.replace(/\n$/, "").split("\n");
  return { count: Number(/^count (\d+)\.*$/.exec(head)![1]), lines };
}

function assertOnce(lines: string[], acked: string[]): void {
  const seen = new Map<string, number>();
  for (const l of lines) seen.set(l, (seen.get(l) ?? 0) + 1);
  const twice = [...seen].filter(([, n]) => n > 1).map(([l]) => l);
  assert.deepEqual(twice, [], "lines written more than once");
  const ackSet = new Set(acked);
  const lost = acked.filter((l) => !seen.has(l));
  assert.deepEqual(lost, [], "acknowledged edits missing from the file");
  const unacked = lines.filter((l) => !ackSet.has(l));
  assert.deepEqual(
    unacked,
    [],
    "lines in the file that were never acknowledged",
  );
}

/** POSTs JSON to a started server and parses the JSON answer. */
function jsonPoster(
  url: string,
  // deno-lint-ignore no-explicit-any
): (path: string, body: unknown) => Promise<{ status: number; body: any }> {
  return async (path, body) => {
    const res = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
}

describe("several processes patch one file", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(join(t.root, "shared.txt"), "count 0\n");
  });
  afterEach(() => t.cleanup());

  it(
    `${PROCESSES} processes × ${ATTEMPTS} read→patch: every acknowledged line lands once`,
    { timeout: 60_000 },
    async () => {
      // Two processes share one state folder (and session), the others have
      // their own: the lock beside the file is what they all meet.
      const states = [t.state, t.state, join(t.base, "s2"), join(t.base, "s3")];
      const runs = states.map((state, i) =>
        collect(
          startTs(CHILD, [
            t.root,
            state,
            i < 2 ? "default" : `w${i}`,
            `writer ${i}`,
            String(ATTEMPTS),
            "shared.txt",
          ]),
        )
      );
      const results = await Promise.all(runs);
      const acked: string[] = [];
      const codes: string[] = [];
      for (const [i, r] of results.entries()) {
        assert.equal(r.code, 0, `writer ${i} failed: ${r.stderr}`);
        const outcomes = r.stdout.trim().split("\n").map((l) =>
          JSON.parse(l) as Outcome
        );
        assert.equal(outcomes.length, ATTEMPTS, `writer ${i} output`);
        for (const o of outcomes) {
          if (o.ok) {
            acked.push(o.line!);
            codes.push("ok");
            continue;
          }
          assert.equal(o.name, "PatchRefusedError", String(o.message));
          assert.ok(
            o.code === "STALE_ANCHOR" || o.code === "CHANGED",
            `refused with ${o.code}: ${o.message}`,
          );
          codes.push(o.code!);
        }
      }
      const { count, lines } = await body(join(t.root, "shared.txt"));
      assertOnce(lines, acked);
      assert.equal(
        count,
        acked.length,
        "the counter counts every acknowledged patch",
      );
      assert.ok(acked.length > 0, "no patch landed at all");
      assert.deepEqual(await leftovers(t.root), []);
      console.log(
        `${PROCESSES} processes: ${PROCESSES * ATTEMPTS} attempts`,
        tally(codes),
      );
    },
  );
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Two lines that share their 2-hex anchor (checked below, so a hash change cannot hide the case). */
const OLD_LINE = "value 78.2";
const COLLIDING_LINE = "value 79.3";

describe("patches built from one read", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(
      join(t.root, "race.txt"),
      "head\nvalue 0\ntail\n",
    );
  });
  afterEach(() => t.cleanup());

  it(
    `${RACERS} concurrent ws.patch calls × ${ROUNDS} rounds: exactly one lands each round`,
    {
      timeout: 60_000,
    },
    async () => {
      const ws = t.open();
      for (let round = 1; round <= ROUNDS; round++) {
        const view = await ws.read("race.txt");
        const start = anchorAt(view.text, 2);
        const old = view.text.split("\n")[1].slice(start.length + 1);
        const lines = Array.from(
          { length: RACERS },
          (_, k) => unlike(`value ${round}.${k}`, old),
        );
        const settled = await Promise.allSettled(lines.map((line) =>
          ws.patch({
            files: [{
              path: "race.txt",
              ops: [{ op: "replace", start, lines: [line] }],
            }],
          })
        ));
        const won = settled.flatMap((s, k) =>
          s.status === "fulfilled" ? [k] : []
        );
        assert.equal(
          won.length,
          1,
          `round ${round}: ${won.length} patches landed`,
        );
        const winner = lines[won[0]];
        for (const s of settled) {
          if (s.status === "fulfilled") continue;
          typedCode(s.reason, ["STALE_ANCHOR"], `round ${round}`);
          // The refusal shows the winner's line with its fresh anchor.
          assert.match(
            (s.reason as PatchRefusedError).message,
            new RegExp(`\\n2:[0-9a-f]{2}\\|${escape(winner)}(\\n|$)`),
          );
        }
        assert.equal(
          await readFile(join(t.root, "race.txt"), "utf8"),
          `head\n${winner}\ntail\n`,
        );
      }
      assert.deepEqual(await leftovers(t.root), []);
    },
  );

  it(
    `${HTTP_RACERS} concurrent POST /v1/files/patch × ${HTTP_ROUNDS} rounds: exactly one 200 each round`,
    {
      timeout: 60_000,
    },
    async () => {
      const server = await startServer({
        root: t.root,
        stateDir: t.state,
        port: 0,
      });
      try {
        const post = jsonPoster(server.url);
        for (let round = 1; round <= HTTP_ROUNDS; round++) {
          const view = await post("/v1/files/read", { path: "race.txt" });
          assert.equal(view.status, 200, JSON.stringify(view.body));
          const start = anchorAt(view.body.text, 2);
          const old = view.body.text.split("\n")[1].slice(start.length + 1);
          const lines = Array.from(
            { length: HTTP_RACERS },
            (_, k) => unlike(`value ${round}.${k}`, old),
          );
          const answers = await Promise.all(
            lines.map((line) =>
              post("/v1/files/patch", {
                path: "race.txt",
                ops: [{ op: "replace", start, lines: [line] }],
              })
            ),
          );
          const won = answers.flatMap((a, k) => a.status === 200 ? [k] : []);
          assert.equal(
            won.length,
            1,
            `round ${round}: ${won.length} answered 200: ${
              JSON.stringify(answers.map((a) => a.status))
            }`,
          );
          const winner = lines[won[0]];
          for (const a of answers) {
            if (a.status === 200) continue;
            assert.equal(a.status, 409, JSON.stringify(a.body));
            assert.equal(
              a.body.error.code,
              "STALE_ANCHOR",
              a.body.error.message,
            );
            assert.match(
              a.body.error.message,
              new RegExp(`\\n2:[0-9a-f]{2}\\|${escape(winner)}(\\n|$)`),
            );
          }
          assert.equal(
            await readFile(join(t.root, "race.txt"), "utf8"),
            `head\n${winner}\ntail\n`,
          );
        }
      } finally {
        await server.close();
      }
    },
  );

  it("the two lines of the collision cases share a short hash", () => {
    assert.equal(unlike(COLLIDING_LINE, OLD_LINE), `${COLLIDING_LINE}.`);
  });

  // Known bug: a patch that commits refreshes the session's read record with
  // the lines it wrote, so a concurrent patch of the same session built from
  // the earlier read is then checked against the winner's lines; when the
  // winner's new line shares the old line's 2-hex anchor (1 in 256), the
  // stale patch lands and silently overwrites the winner's edit.
  it(
    "a stale patch of the same session is refused even when the winner's line shares the old short hash",
    async () => {
      await writeFile(join(t.root, "race.txt"), `head\n${OLD_LINE}\ntail\n`);
      const ws = t.open();
      const view = await ws.read("race.txt");
      const start = anchorAt(view.text, 2);
      const settled = await Promise.allSettled(
        [COLLIDING_LINE, "value loser"].map((line) =>
          ws.patch({
            files: [{
              path: "race.txt",
              ops: [{ op: "replace", start, lines: [line] }],
            }],
          })
        ),
      );
      const won = settled.filter((s) => s.status === "fulfilled").length;
      assert.equal(won, 1, "both patches built from one read landed");
    },
  );

  it(
    "over HTTP too: concurrent requests of the default session, winner's line sharing the old short hash",
    async () => {
      await writeFile(join(t.root, "race.txt"), `head\n${OLD_LINE}\ntail\n`);
      const server = await startServer({
        root: t.root,
        stateDir: t.state,
        port: 0,
      });
      try {
        const post = jsonPoster(server.url);
        const view = await post("/v1/files/read", { path: "race.txt" });
        const start = anchorAt(view.body.text, 2);
        const answers = await Promise.all(
          [COLLIDING_LINE, "value loser"].map((line) =>
            post("/v1/files/patch", {
              path: "race.txt",
              ops: [{ op: "replace", start, lines: [line] }],
            })
          ),
        );
        assert.deepEqual(
          answers.map((a) => a.status).sort(),
          [200, 409],
          "both requests built from one read answered 200",
        );
      } finally {
        await server.close();
      }
    },
  );
});

describe("concurrent appends queue", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(join(t.root, "log.txt"), "start\n");
  });
  afterEach(() => t.cleanup());

  it(
    `${APPENDERS} concurrent appends × ${APPEND_ROUNDS} rounds through one workspace all land`,
    {
      timeout: 60_000,
    },
    async () => {
      const ws = t.open();
      await ws.read("log.txt");
      const acked: string[] = [];
      for (let round = 0; round < APPEND_ROUNDS; round++) {
        const lines = Array.from(
          { length: APPENDERS },
          (_, k) => `ws ${round}.${k}`,
        );
        await Promise.all(lines.map((line) =>
          ws.patch({
            files: [{
              path: "log.txt",
              ops: [{ op: "append", lines: [line] }],
            }],
          })
        ));
        acked.push(...lines);
      }
      const text = await readFile(join(t.root, "log.txt"), "utf8");
      const [first, ...rest] = text.replace(/\n$/, "").split("\n");
      assert.equal(first, "start");
      assertOnce(rest, acked);
      assert.equal(rest.length, APPENDERS * APPEND_ROUNDS);
    },
  );

  it(
    `${APPENDERS} concurrent POST appends × ${APPEND_ROUNDS} rounds to one server all answer 200 and land`,
    {
      timeout: 60_000,
    },
    async () => {
      const server = await startServer({
        root: t.root,
        stateDir: t.state,
        port: 0,
      });
      try {
        const post = jsonPoster(server.url);
        assert.equal(
          (await post("/v1/files/read", { path: "log.txt" })).status,
          200,
        );
        const acked: string[] = [];
        for (let round = 0; round < APPEND_ROUNDS; round++) {
          const lines = Array.from(
            { length: APPENDERS },
            (_, k) => `http ${round}.${k}`,
          );
          const answers = await Promise.all(
            lines.map((line) =>
              post("/v1/files/patch", {
                path: "log.txt",
                ops: [{ op: "append", lines: [line] }],
              })
            ),
          );
          for (const a of answers) {
            assert.equal(a.status, 200, JSON.stringify(a.body));
          }
          acked.push(...lines);
        }
        const text = await readFile(join(t.root, "log.txt"), "utf8");
        const [first, ...rest] = text.replace(/\n$/, "").split("\n");
        assert.equal(first, "start");
        assertOnce(rest, acked);
        assert.equal(rest.length, APPENDERS * APPEND_ROUNDS);
      } finally {
        await server.close();
      }
    },
  );
});
