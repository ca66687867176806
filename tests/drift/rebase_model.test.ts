/**
 * Rebase checked against a model of line identities, after full and lean
 * reads. Random TypeScript-like
 * files; random patches built from a read (ranges, inserts on both sides,
 * block anchors, moves and copies, by range or by block); random drift on
 * disk before the patch arrives (new lines anywhere, a line deleted, a line
 * copied directly beside itself; never a line that opens or closes a
 * function, so the blocks stay those of the model). Each line of the file as read has an
 * identity, and the patch's intended result on the file now is worked out
 * over identities. With rebase on or off, a patch is either refused with the bytes
 * on disk unchanged, or lands exactly as intended, never anywhere else; a
 * patch whose lines the drift broke up or removed must be refused; and a
 * patch with no drift always lands.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { PatchRefusedError } from "../../src/errors.ts";
import { lineHash } from "../../src/hash/mod.ts";
import { createRng } from "../../bench/formats/_rng.ts";
import { makeTree } from "../workspace/_helpers.ts";

interface Line {
  id: number;
  text: string;
}

interface Fn {
  open: number;
  close: number;
}

function makeFile(r: (n: number) => number): { lines: Line[]; fns: Fn[] } {
  const lines: Line[] = [];
  const fns: Fn[] = [];
  const count = 4 + r(3);
  for (let f = 0; f < count; f++) {
    const open = lines.length;
    lines.push({ id: lines.length, text: `function f${f}() {` });
    const body = 1 + r(3);
    for (let b = 0; b < body; b++) {
      lines.push({ id: lines.length, text: `  call(${f}, ${b});` });
    }
    lines.push({ id: lines.length, text: "}" });
    fns.push({ open, close: lines.length - 1 });
    if (r(2) === 0) lines.push({ id: lines.length, text: "" });
  }
  return { lines, fns };
}

/** One op of the patch, by identities (ids are indexes in the file as read). */
interface Op {
  kind:
    | "replace"
    | "delete"
    | "insert_after"
    | "insert_before"
    | "move"
    | "copy";
  /** Range ops, moves and copies: the lines (a block's, when `block`). */
  from: number;
  to: number;
  block: boolean;
  /** New lines (replace, inserts). */
  lines: string[];
  /** Inserts: the anchor line. */
  at: number;
  /** Moves and copies: after this line, named by its block when `afterBlock`. */
  after: number;
  afterBlock: Fn | null;
}

const NONE = {
  from: -1,
  to: -1,
  block: false,
  lines: [],
  at: -1,
  after: -1,
  afterBlock: null,
};

function makeOps(r: (n: number) => number, fns: Fn[]): Op[] {
  const free = fns.map((_, i) => i);
  const take = (): Fn => fns[free.splice(r(free.length), 1)[0]];
  const ops: Op[] = [];
  const n = 1 + r(2);
  for (let k = 0; k < n && free.length >= 2; k++) {
    const f = take();
    const bodyFrom = f.open + 1;
    const bodyTo = f.close - 1;
    const s = bodyFrom + r(bodyTo - bodyFrom + 1);
    const e = s + r(bodyTo - s + 1);
    switch (r(7)) {
      case 0:
        ops.push({
          ...NONE,
          kind: "replace",
          from: s,
          to: e,
          block: false,
          lines: [`  changed(${k});`],
        });
        break;
      case 1:
        ops.push({ ...NONE, kind: "delete", from: s, to: e });
        break;
      case 2:
        ops.push({
          ...NONE,
          kind: "insert_after",
          at: f.open + r(f.close - f.open),
          lines: [`  added(${k});`],
        });
        break;
      case 3:
        ops.push({
          ...NONE,
          kind: "insert_before",
          at: f.open + 1 + r(f.close - f.open),
          lines: [`  added(${k});`],
        });
        break;
      case 4:
        ops.push({
          ...NONE,
          kind: r(2) === 0 ? "delete" : "replace",
          from: f.open,
          to: f.close,
          block: true,
          lines: [`function g${k}() {`, `  replaced(${k});`, "}"],
        });
        break;
      default: {
        const g = take();
        const byBlock = r(2) === 0;
        ops.push({
          ...NONE,
          kind: r(2) === 0 ? "move" : "copy",
          from: f.open,
          to: f.close,
          block: r(2) === 0,
          after: g.close,
          afterBlock: byBlock ? g : null,
        });
      }
    }
  }
  return ops;
}

/** The patch as sent, from the read (1-based numbers of the read). */
function patchOf(path: string, read: Line[], ops: Op[], lean: boolean) {
  // After a lean read (`LINE|content`), lines are named by number alone.
  const anchor = (i: number) =>
    lean ? `${i + 1}` : `${i + 1}:${lineHash(read[i].text)}`;
  const lineOps: unknown[] = [];
  const moves: unknown[] = [];
  for (const op of ops) {
    if (op.kind === "replace" || op.kind === "delete") {
      const start = op.block ? `${anchor(op.from)}*` : anchor(op.from);
      lineOps.push({
        op: op.kind,
        start,
        ...(!op.block && op.to !== op.from ? { end: anchor(op.to) } : {}),
        ...(op.kind === "replace" ? { lines: op.lines } : {}),
      });
    } else if (op.kind === "insert_after" || op.kind === "insert_before") {
      lineOps.push({ op: op.kind, anchor: anchor(op.at), lines: op.lines });
    } else {
      moves.push({
        op: op.kind,
        start: op.block ? `${anchor(op.from)}*` : anchor(op.from),
        ...(op.block ? {} : { end: anchor(op.to) }),
        after: op.afterBlock
          ? `${anchor(op.afterBlock.open)}*`
          : anchor(op.after),
      });
    }
  }
  return {
    files: [{ path, ops: lineOps, ...(moves.length ? { moves } : {}) }],
  };
}

/** Drift: new lines anywhere, a line deleted, a line copied beside itself. */
function drift(r: (n: number) => number, read: Line[]): Line[] {
  const now = read.slice();
  let next = 1000;
  const edits = r(4);
  for (let k = 0; k < edits; k++) {
    switch (r(4)) {
      case 0:
      case 1:
        now.splice(r(now.length + 1), 0, { id: next++, text: `// drift ${k}` });
        break;
      case 2:
        {
          // Not a line that opens or closes a function: the parser would
          // then see other blocks than the model (with a brace gone, the
          // block now ends elsewhere, and a block op takes it as it is).
          const i = r(now.length);
          // Nor a line whose text stands twice (a copy, then the original
          // gone, leaves the file as if nothing happened there).
          const twice = now.filter((l) => l.text === now[i].text).length > 1;
          if (!/^(function|\})/.test(now[i].text) && !twice) now.splice(i, 1);
        }
        break;
      default: {
        const i = r(now.length);
        if (!/^ {2}call/.test(now[i].text)) break;
        now.splice(i + r(2), 0, { id: next++, text: now[i].text });
      }
    }
  }
  return now;
}

/**
 * The intended result on the file now, or null when the drift broke up or
 * removed lines the patch names (then only a refusal is right).
 */
function intended(now: Line[], read: Line[], ops: Op[]): string[] | null {
  const pos = new Map(now.map((l, i) => [l.id, i]));
  const whole = (from: number, to: number): boolean => {
    const p = pos.get(from);
    if (p === undefined) return false;
    for (let id = from; id <= to; id++) {
      if (pos.get(id) !== p + id - from) return false;
    }
    return true;
  };
  const drop = new Set<number>();
  const put = new Map<number, string[]>();
  const after = new Map<number, string[]>();
  const before = new Map<number, string[]>();
  for (const op of ops) {
    if (op.kind === "replace" || op.kind === "delete") {
      if (!whole(op.from, op.to)) return null;
      for (let id = op.from; id <= op.to; id++) drop.add(id);
      if (op.kind === "replace") put.set(op.from, op.lines);
    } else if (op.kind === "insert_after" || op.kind === "insert_before") {
      if (!pos.has(op.at)) return null;
      (op.kind === "insert_after" ? after : before).set(op.at, op.lines);
    } else {
      const target = op.afterBlock ? op.afterBlock.open : op.after;
      if (!whole(op.from, op.to) || !pos.has(op.after)) return null;
      if (op.afterBlock && !whole(target, op.after)) return null;
      if (op.kind === "move") {
        for (let id = op.from; id <= op.to; id++) drop.add(id);
      }
      after.set(
        op.after,
        read.slice(op.from, op.to + 1).map((l) => l.text),
      );
    }
  }
  const out: string[] = [];
  for (const l of now) {
    out.push(...(before.get(l.id) ?? []));
    out.push(...(put.get(l.id) ?? []));
    if (!drop.has(l.id)) out.push(l.text);
    out.push(...(after.get(l.id) ?? []));
  }
  return out;
}

const text = (lines: string[]) => lines.join("\n") + "\n";

describe("rebase against a model of line identities", () => {
  it(
    "every patch lands as intended or is refused, bytes unchanged; none lands elsewhere",
    {
      timeout: 120_000,
    },
    async () => {
      const t = await makeTree();
      try {
        const ws = t.open({ check: "off" });
        const tally = { control: 0, landed: 0, refused: 0, mustRefuse: 0 };
        for (let i = 0; i < 240; i++) {
          const r = createRng(0x5eed + i).int;
          const { lines: read, fns } = makeFile(r);
          const ops = makeOps(r, fns);
          const path = `f${i}.ts`;
          await writeFile(join(t.root, path), text(read.map((l) => l.text)));
          // Every fourth trial reads lean and names lines by number alone.
          const lean = i % 4 === 3;
          await ws.read(path, lean ? { anchors: "lean" } : {});
          const now = i % 6 === 0 ? read : drift(r, read);
          const disk = text(now.map((l) => l.text));
          await writeFile(join(t.root, path), disk);
          const want = intended(now, read, ops);
          const patch = patchOf(path, read, ops, lean);
          const label = `trial ${i}: ${JSON.stringify(patch)}\nnow:\n${disk}`;
          const rebase = i % 2 === 1;
          const out = await ws.patch(patch as never, { rebase }).then(
            () => null,
            (e) => e,
          );
          const after = await readFile(join(t.root, path), "utf8");
          if (out !== null) {
            assert.ok(out instanceof PatchRefusedError, `${label}\n${out}`);
            assert.equal(after, disk, label);
            assert.notEqual(
              now,
              read,
              `a patch with no drift is refused: ${label}\n${out.message}`,
            );
            tally.refused++;
            if (want === null) tally.mustRefuse++;
            continue;
          }
          assert.ok(
            want !== null,
            `landed where only a refusal is right: ${label}\ngot:\n${after}`,
          );
          assert.equal(after, text(want), label);
          if (now === read) tally.control++;
          else tally.landed++;
        }
        // The drifted trials with rebase on are not all refused: rebase does its job.
        assert.ok(tally.landed >= 30, JSON.stringify(tally));
        assert.ok(tally.mustRefuse >= 10, JSON.stringify(tally));
        assert.equal(tally.control, 40, JSON.stringify(tally));
      } finally {
        await t.cleanup();
      }
    },
  );
});
