/**
 * Undo checked against a model of line identities. Random TypeScript-like
 * files and random patches (replaced ranges, deleted ranges, inserts, copies
 * whose lines repeat lines that stay, moves); each
 * patch lands, then the file drifts on disk (new lines anywhere, a line
 * deleted or edited, a line copied directly beside itself, the patch's own lines
 * included), then the patch's entry is undone through the library. Each
 * line has an identity, and the intended undo is worked out over them: the
 * lines the patch wrote give way to the lines it replaced, wherever they
 * stand now, and every other line is kept. An undo either lands exactly as
 * intended or is refused with the bytes on disk unchanged; an undo whose
 * written lines the drift broke up or removed must be refused; an undo with
 * no drift always lands, giving back the bytes before the patch.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { HashlineError } from "../../src/errors.ts";
import { lineHash } from "../../src/hash/mod.ts";
import { createRng } from "../../bench/formats/_rng.ts";
import { makeTree } from "../workspace/_helpers.ts";

interface Line {
  id: number;
  text: string;
  /** A drift's copy: the id of the line it copies, which stands beside it. */
  copyOf?: number;
}

/** Functions of a few body lines, closing braces and blank lines repeating. */
function makeFile(
  r: (n: number) => number,
): { lines: Line[]; bodies: number[][] } {
  const lines: Line[] = [];
  const bodies: number[][] = [];
  const count = 4 + r(3);
  for (let f = 0; f < count; f++) {
    lines.push({ id: lines.length, text: `function f${f}() {` });
    const body: number[] = [];
    for (let b = 0; b < 1 + r(3); b++) {
      body.push(lines.length);
      lines.push({ id: lines.length, text: `  call(${f}, ${b});` });
    }
    bodies.push(body);
    lines.push({ id: lines.length, text: "}" });
    if (r(2) === 0) lines.push({ id: lines.length, text: "" });
  }
  return { lines, bodies };
}

/** What one op did, by identities: the lines it removed and the lines it wrote. */
interface Change {
  removed: Line[];
  wrote: Line[];
  /** Lines only removed: the lines on each side of where they stood. */
  before: number;
  after: number;
}

interface Plan {
  ops: unknown[];
  moves: unknown[];
  patched: Line[];
  changes: Change[];
}

function makePatch(
  r: (n: number) => number,
  read: Line[],
  bodies: number[][],
): Plan {
  const anchor = (id: number) => `${id + 1}:${lineHash(read[id].text)}`;
  const free = bodies.map((_, i) => i);
  const ops: unknown[] = [];
  const moves: unknown[] = [];
  const drop = new Set<number>();
  const put = new Map<number, Line[]>();
  const after = new Map<number, Line[]>();
  const changes: Change[] = [];
  let next = 500;
  const n = 1 + r(2);
  for (let k = 0; k < n; k++) {
    const body = bodies[free.splice(r(free.length), 1)[0]];
    const s = r(body.length);
    const e = s + r(body.length - s);
    const from = body[s];
    const to = body[e];
    const fresh = (m: number): Line[] =>
      Array.from({ length: m }, (_, j) => ({
        id: next++,
        text: `  wrote(${k}, ${j});`,
      }));
    const kind = r(4);
    if (kind === 3 && free.length > 0) {
      // A copy (or a move) of the range after another function: its lines
      // are written with the same text as lines that stay where they were
      // (or that it removed).
      const g = bodies[free.splice(r(free.length), 1)[0]];
      const close = g[g.length - 1] + 1;
      const wrote = read.slice(from, to + 1).map((l) => ({
        id: next++,
        text: l.text,
      }));
      const move = r(2) === 0;
      moves.push({
        op: move ? "move" : "copy",
        start: anchor(from),
        ...(to !== from ? { end: anchor(to) } : {}),
        after: anchor(close),
      });
      after.set(close, wrote);
      changes.push({ removed: [], wrote, before: -1, after: -1 });
      if (move) {
        for (let id = from; id <= to; id++) drop.add(id);
        changes.push({
          removed: read.slice(from, to + 1),
          wrote: [],
          before: from - 1,
          after: to + 1,
        });
      }
      continue;
    }
    switch (kind % 3) {
      case 0: {
        const wrote = fresh(1 + r(2));
        ops.push({
          op: "replace",
          start: anchor(from),
          ...(to !== from ? { end: anchor(to) } : {}),
          lines: wrote.map((l) => l.text),
        });
        for (let id = from; id <= to; id++) drop.add(id);
        put.set(from, wrote);
        changes.push({
          removed: read.slice(from, to + 1),
          wrote,
          before: -1,
          after: -1,
        });
        break;
      }
      case 1:
        ops.push({
          op: "delete",
          start: anchor(from),
          ...(to !== from ? { end: anchor(to) } : {}),
        });
        for (let id = from; id <= to; id++) drop.add(id);
        changes.push({
          removed: read.slice(from, to + 1),
          wrote: [],
          before: from - 1,
          after: to + 1,
        });
        break;
      default: {
        const wrote = fresh(1 + r(2));
        ops.push({
          op: "insert_after",
          anchor: anchor(to),
          lines: wrote.map((l) => l.text),
        });
        after.set(to, wrote);
        changes.push({ removed: [], wrote, before: -1, after: -1 });
      }
    }
  }
  // Replaced lines' new text goes where the range was.
  const out: Line[] = [];
  for (const l of read) {
    out.push(...(put.get(l.id) ?? []));
    if (!drop.has(l.id)) out.push(l);
    out.push(...(after.get(l.id) ?? []));
  }
  return { ops, moves, patched: out, changes };
}

/** Drift of the patched file: new lines, a line gone or edited, a line copied beside itself. */
function drift(r: (n: number) => number, file: Line[]): Line[] {
  const now = file.slice();
  let next = 2000;
  for (let k = r(4); k > 0; k--) {
    const edit = r(3) === 0;
    if (edit) {
      // A line edited in place: a new line as far as the entry knows.
      const i = r(now.length);
      if (/^ {2}(call|wrote)/.test(now[i].text)) {
        now[i] = { id: next++, text: `${now[i].text} // edited` };
      }
      continue;
    }
    switch (r(4)) {
      case 0:
      case 1:
        now.splice(r(now.length + 1), 0, { id: next++, text: `// drift ${k}` });
        break;
      case 2: {
        const i = r(now.length);
        const twice = now.filter((l) => l.text === now[i].text).length > 1;
        if (!/^(function|\})/.test(now[i].text) && !twice) now.splice(i, 1);
        break;
      }
      default: {
        const i = r(now.length);
        if (/^ {2}(call|wrote)/.test(now[i].text)) {
          now.splice(i + r(2), 0, {
            id: next++,
            text: now[i].text,
            copyOf: now[i].id,
          });
        }
      }
    }
  }
  return now;
}

/**
 * Every result the undo may leave: the intended one, or (for a change that
 * only removed lines, whose place is between two lines) each side of a gap
 * the drift widened. Empty: only a refusal is right.
 */
function intended(now: Line[], changes: Change[]): string[][] {
  // A copy beside its original cannot be told from it: either may be the
  // line the patch wrote. Every way of telling them apart is intended.
  let files: Line[][] = [now];
  for (const c of now.filter((l) => l.copyOf !== undefined)) {
    files = files.flatMap((f) => {
      const i = f.findIndex((l) => l.id === c.id);
      const j = f.findIndex((l) => l.id === c.copyOf);
      if (i < 0 || j < 0 || Math.abs(i - j) !== 1) return [f];
      const swapped = f.slice();
      swapped[i] = { ...f[i], id: f[j].id };
      swapped[j] = { ...f[j], id: f[i].id };
      return [f, swapped];
    });
  }
  const out = new Set<string>();
  for (const f of files) {
    for (const r of intendedOne(f, changes)) out.add(JSON.stringify(r));
  }
  return [...out].map((r) => JSON.parse(r));
}

function intendedOne(now: Line[], changes: Change[]): string[][] {
  let results: Line[][] = [now];
  for (const c of changes) {
    const next: Line[][] = [];
    for (const file of results) {
      const at = new Map(file.map((l, i) => [l.id, i]));
      if (c.wrote.length > 0) {
        const p = at.get(c.wrote[0].id);
        if (p === undefined) return [];
        for (let j = 0; j < c.wrote.length; j++) {
          if (file[p + j]?.id !== c.wrote[j].id) return [];
        }
        next.push([
          ...file.slice(0, p),
          ...c.removed,
          ...file.slice(p + c.wrote.length),
        ]);
        continue;
      }
      // Lines only removed: they go back after the line before them, or
      // before the line after them; either, when the drift put lines between.
      const b = at.get(c.before);
      const a = at.get(c.after);
      const sides = new Set<number>();
      if (b !== undefined) sides.add(b + 1);
      if (a !== undefined) sides.add(a);
      if (sides.size === 0) return [];
      for (const p of sides) {
        next.push([...file.slice(0, p), ...c.removed, ...file.slice(p)]);
      }
    }
    results = next;
  }
  return results.map((f) => f.map((l) => l.text));
}

const text = (lines: string[]) => lines.join("\n") + "\n";

describe("undo against a model of line identities", () => {
  it(
    "every undo lands as intended or is refused, bytes unchanged; none lands elsewhere",
    {
      timeout: 120_000,
    },
    async () => {
      const t = await makeTree();
      try {
        const ws = t.open({ check: "off" });
        const tally = { control: 0, landed: 0, refused: 0, mustRefuse: 0 };
        for (let i = 0; i < 200; i++) {
          const r = createRng(0x0d0 + i).int;
          const { lines: read, bodies } = makeFile(r);
          const plan = makePatch(r, read, bodies);
          const path = `u${i}.ts`;
          const original = text(read.map((l) => l.text));
          await writeFile(join(t.root, path), original);
          await ws.read(path);
          const done = await ws.patch(
            {
              files: [{
                path,
                ops: plan.ops,
                ...(plan.moves.length > 0 ? { moves: plan.moves } : {}),
              }],
            } as never,
          );
          const patched = text(plan.patched.map((l) => l.text));
          assert.equal(
            await readFile(join(t.root, path), "utf8"),
            patched,
            `trial ${i}`,
          );
          const now = i % 5 === 0 ? plan.patched : drift(r, plan.patched);
          const disk = text(now.map((l) => l.text));
          await writeFile(join(t.root, path), disk);
          const want = intended(now, plan.changes).map(text);
          const label = `trial ${i}: ${
            JSON.stringify(plan.ops)
          }\nnow:\n${disk}`;
          const out = await ws.undo(done.entry!).then(() => null, (e) => e);
          const after = await readFile(join(t.root, path), "utf8");
          if (out !== null) {
            assert.ok(out instanceof HashlineError, `${label}\n${out}`);
            assert.equal(after, disk, label);
            assert.notEqual(
              now,
              plan.patched,
              `an undo with no drift is refused: ${label}\n${out.message}`,
            );
            tally.refused++;
            if (want.length === 0) tally.mustRefuse++;
            continue;
          }
          assert.ok(
            want.length > 0,
            `undone where only a refusal is right: ${label}\ngot:\n${after}`,
          );
          assert.ok(
            want.includes(after),
            `${label}\ngot:\n${after}\nwant one of:\n${want.join("\n--\n")}`,
          );
          if (now === plan.patched) {
            assert.equal(after, original, label);
            tally.control++;
          } else tally.landed++;
        }
        assert.equal(tally.control, 40, JSON.stringify(tally));
        assert.ok(tally.landed >= 40, JSON.stringify(tally));
        assert.ok(tally.mustRefuse >= 5, JSON.stringify(tally));
      } finally {
        await t.cleanup();
      }
    },
  );
});
