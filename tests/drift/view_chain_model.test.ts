/**
 * Chains of edits from one read, checked against a model of line
 * identities (docs/reads.md#views-several-edits-from-one-read). A session
 * reads a file once (`L:HH` or lean), then sends random ops one call each,
 * all built from that read, top-down or shuffled, with rebase off or on;
 * between calls another party may insert, delete or change lines. After
 * every call the bytes on disk are either exactly as before it (refused) or
 * exactly the op applied to the lines the model meant, never anything else.
 * A chain with no other party lands whole (with bare numbers, only an
 * ambiguity between views may refuse).
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { PatchRefusedError } from "../../src/errors.ts";
import { lineHash } from "../../src/hash/mod.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { createRng, type Rng } from "../../bench/formats/_rng.ts";
import { makeTree } from "../workspace/_helpers.ts";

interface Line {
  id: number;
  text: string;
}

interface Op {
  kind: "replace" | "delete" | "insert_after" | "insert_before";
  /** Ids of the first and last line (as read). */
  from: number;
  to: number;
  lines: string[];
}

let nextId = 0;
const fresh = (text: string): Line => ({ id: nextId++, text });

function makeFile(rng: Rng): Line[] {
  const out: Line[] = [];
  const fns = 6 + rng.int(6);
  for (let f = 0; f < fns; f++) {
    out.push(fresh(`function f${f}() {`));
    for (let b = 0, n = 1 + rng.int(4); b < n; b++) {
      out.push(fresh(`  call(${f}, ${b});`));
    }
    out.push(fresh("}"));
    if (rng.int(2) === 0) out.push(fresh(""));
  }
  return out;
}

function makeOps(rng: Rng, read: Line[], k: number): Op[] {
  const ops: Op[] = [];
  const used = new Set<number>();
  for (let tries = 0; ops.length < k && tries < 200; tries++) {
    const i = rng.int(read.length);
    const span = rng.int(3) === 0 ? 1 : 0;
    const j = Math.min(read.length - 1, i + span);
    if (used.has(i) || used.has(j)) continue;
    used.add(i).add(j);
    const kind =
      (["replace", "delete", "insert_after", "insert_before"] as const)[
        rng.int(4)
      ];
    const n = ops.length;
    ops.push({
      kind,
      from: read[i].id,
      to: kind.startsWith("insert") ? read[i].id : read[j].id,
      lines: kind === "delete"
        ? []
        : [`  edit(${n});`, ...(rng.int(3) === 0 ? [`  more(${n});`] : [])],
    });
  }
  return ops;
}

/** The file after `op` lands where the model meant, or null when it must be refused. */
function intended(
  now: Line[],
  op: Op,
  mine: ReadonlySet<number>,
  region: ReadonlySet<number>,
): Line[] | null {
  const a = now.findIndex((l) => l.id === op.from);
  const b = now.findIndex((l) => l.id === op.to);
  if (a < 0 || b < 0 || b < a) return null;
  // Lines between the ends must be the region as read or the session's own.
  for (let x = a + 1; x < b; x++) {
    if (!region.has(now[x].id) && !mine.has(now[x].id)) return null;
  }
  const added = op.lines.map((t) => fresh(t));
  const out = now.slice();
  if (op.kind === "insert_after") out.splice(a + 1, 0, ...added);
  else if (op.kind === "insert_before") out.splice(a, 0, ...added);
  else out.splice(a, b - a + 1, ...added);
  return out;
}

function opText(op: Op, read: Line[], lean: boolean): string {
  const name = (id: number) => {
    const n = read.findIndex((l) => l.id === id) + 1;
    return lean ? `${n}` : `${n}:${lineHash(read[n - 1].text)}`;
  };
  const body = op.lines.map((l) => `~${l}`).join("\n");
  switch (op.kind) {
    case "replace":
      return `= ${name(op.from)}${
        op.to !== op.from ? `..${name(op.to)}` : ""
      }\n${body}`;
    case "delete":
      return `- ${name(op.from)}${op.to !== op.from ? `..${name(op.to)}` : ""}`;
    case "insert_after":
      return `+ ${name(op.from)}\n${body}`;
    case "insert_before":
      return `< ${name(op.from)}\n${body}`;
  }
}

const text = (lines: Line[]) => lines.map((l) => l.text).join("\n") + "\n";

/** Another party's change: a new line, a deleted line, or a changed one. */
function drift(rng: Rng, now: Line[]): Line[] {
  const out = now.slice();
  const at = rng.int(out.length);
  switch (rng.int(4)) {
    case 0:
    case 1:
      out.splice(at, 0, fresh(`  theirs(${nextId});`));
      break;
    case 2:
      if (out.length > 4) out.splice(at, 1);
      break;
    default:
      out[at] = fresh(`${out[at].text} // theirs`);
  }
  return out;
}

const CHAINS = 12;

describe("chains of edits from one read against a model of line identities", () => {
  for (const lean of [false, true]) {
    for (const rebase of [false, true]) {
      for (const others of [false, true]) {
        const name = `${lean ? "lean numbers" : "L:HH"}, rebase ${
          rebase ? "on" : "off"
        }, ${others ? "another party between edits" : "no other party"}`;
        it(
          `${name}: every edit lands as meant or is refused, bytes unchanged`,
          {
            timeout: 120_000,
          },
          async () => {
            const t = await makeTree();
            try {
              let landed = 0;
              for (let c = 0; c < CHAINS; c++) {
                const rng = createRng(
                  1000 * c + (lean ? 100 : 0) + (rebase ? 10 : 0) +
                    (others ? 1 : 0),
                );
                const path = `f${c}.ts`;
                let now = makeFile(rng);
                await writeFile(join(t.root, path), text(now));
                const ws = openWorkspace(t.root, {
                  stateDir: t.state,
                  session: `s${c}`,
                });
                await ws.read(path, lean ? { anchors: "lean" } : {});
                const read = now.slice();
                const k = rng.int(2) === 0 ? 3 : 10;
                let ops = makeOps(rng, read, k);
                if (rng.int(2) === 0) ops = rng.shuffle(ops);
                const mine = new Set<number>();
                for (const [n, op] of ops.entries()) {
                  if (others && n > 0 && rng.int(2) === 0) {
                    now = drift(rng, now);
                    await writeFile(join(t.root, path), text(now));
                  }
                  const a = read.findIndex((l) => l.id === op.from);
                  const b = read.findIndex((l) => l.id === op.to);
                  const region = new Set(read.slice(a, b + 1).map((l) => l.id));
                  const before = await readFile(join(t.root, path), "utf8");
                  const patch = `@@ ${path}\n${opText(op, read, lean)}`;
                  const out = await ws.patch(patch, { rebase }).then(
                    () => null,
                    (e) => e,
                  );
                  const after = await readFile(join(t.root, path), "utf8");
                  const want = intended(now, op, mine, region);
                  if (out !== null) {
                    assert.ok(out instanceof PatchRefusedError, String(out));
                    assert.equal(
                      after,
                      before,
                      `refused, yet the file changed: ${patch}`,
                    );
                    if (!others && want !== null) {
                      assert.match(
                        out.message,
                        /ambiguous/,
                        `${patch}\n${out.message}`,
                      );
                    }
                    continue;
                  }
                  assert.ok(
                    want !== null,
                    `landed, but must be refused: ${patch}\n${before}\n→\n${after}`,
                  );
                  assert.equal(
                    after,
                    text(want),
                    `landed elsewhere: ${patch}\n${before}`,
                  );
                  const grown = want.filter((l) =>
                    !now.some((m) => m.id === l.id)
                  );
                  for (const l of grown) mine.add(l.id);
                  now = want;
                  landed++;
                }
              }
              assert.ok(landed > CHAINS, `only ${landed} edits landed`);
            } finally {
              await t.cleanup();
            }
          },
        );
      }
    }
  }
});
