/**
 * Several edits from one read (docs/reads.md#views-several-edits-from-one-read),
 * measured on the formats bench's real-code corpus: a session reads a file
 * once, then sends k edits one call each, all built from that read. Each
 * case runs through hashline (`L:HH` and bare numbers, rebase off and on)
 * and, in the same run, through `@oh-my-pi/hashline` (its `PUT`/`CUT` under
 * the one read's tag). After every edit the file is judged against a model
 * of line identities: correct (exactly the edit the model meant), refused
 * (the file unchanged), or wrong (anything else; the rest of that chain is
 * not counted).
 *
 *   deno task bench:sequence [--files N] [--seed S] [--no-peer]
 *
 * @module
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { lineHash } from "../../src/hash/mod.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { createRng, deriveSeed, type Rng } from "../formats/_rng.ts";
import { loadSources } from "../formats/sources.ts";
import { PEER_NAME, PEER_PATHS, peerUnavailable } from "../formats/peer.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, "..", "..");

interface Line {
  id: number;
  text: string;
}

/** One edit, by the identity of the line it names in the read. */
interface Edit {
  kind: "replace" | "delete" | "insert_after";
  /** 0-based index of the line in the read (first line of a delete span). */
  at: number;
  /** Lines a delete removes (1 or more). */
  span: number;
  text: string;
}

/** Another party's line put into the file before an edit. */
interface Drift {
  at: number;
  text: string;
}

interface Chain {
  path: string;
  read: string;
  edits: Edit[];
  drift: (Drift | undefined)[];
  /** The conflict case: the second edit must be refused, the first land. */
  conflict: boolean;
}

interface Case {
  name: string;
  k: number;
  order: "top-down" | "shuffled";
  drift: boolean;
  conflict: boolean;
}

const CASES: Case[] = [
  {
    name: "k=3, top-down",
    k: 3,
    order: "top-down",
    drift: false,
    conflict: false,
  },
  {
    name: "k=3, shuffled",
    k: 3,
    order: "shuffled",
    drift: false,
    conflict: false,
  },
  {
    name: "k=10, top-down",
    k: 10,
    order: "top-down",
    drift: false,
    conflict: false,
  },
  {
    name: "k=10, shuffled",
    k: 10,
    order: "shuffled",
    drift: false,
    conflict: false,
  },
  {
    name: "another party's insert between edits",
    k: 3,
    order: "shuffled",
    drift: true,
    conflict: false,
  },
  {
    name: "edit 2 names a line edit 1 removed",
    k: 2,
    order: "top-down",
    drift: false,
    conflict: true,
  },
];

let nextId = 0;

function linesOf(text: string): Line[] {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  return body.split("\n").map((t) => ({ id: nextId++, text: t }));
}

const join_ = (lines: Line[]) => lines.map((l) => l.text).join("\n") + "\n";

function makeChain(rng: Rng, path: string, read: string, c: Case): Chain {
  const lines = read.slice(0, -1).split("\n");
  const n = lines.length;
  const edits: Edit[] = [];
  if (c.conflict) {
    const at = 5 + rng.int(n - 10);
    edits.push({ kind: "delete", at, span: 3, text: "" });
    edits.push({ kind: "replace", at: at + 1, span: 1, text: "conflict();" });
  } else {
    const used = new Set<number>();
    while (edits.length < c.k && used.size < n) {
      const at = rng.int(n);
      if (used.has(at) || used.has(at - 1) || used.has(at + 1)) continue;
      used.add(at);
      const kind = (["replace", "delete", "insert_after"] as const)[rng.int(3)];
      edits.push({
        kind,
        at,
        span: 1,
        text: kind === "delete"
          ? ""
          : `${lines[at]} /* edit ${edits.length} */`,
      });
    }
    edits.sort((a, b) => a.at - b.at);
    if (c.order === "shuffled") {
      edits.splice(0, edits.length, ...rng.shuffle(edits));
    }
  }
  const drift = edits.map((_, i) =>
    c.drift && i > 0 ? { at: rng.int(n), text: `/* theirs ${i} */` } : undefined
  );
  return { path, read, edits, drift, conflict: c.conflict };
}

/** The file after `e` lands where meant (ids of the read), or null when it must be refused. */
function intended(
  now: Line[],
  read: Line[],
  e: Edit,
  gone: Set<number>,
): Line[] | null {
  const ids = read.slice(e.at, e.at + e.span).map((l) => l.id);
  if (ids.some((id) => gone.has(id))) return null;
  const a = now.findIndex((l) => l.id === ids[0]);
  if (a < 0) return null;
  for (let k = 1; k < ids.length; k++) {
    if (now[a + k]?.id !== ids[k]) return null;
  }
  const out = now.slice();
  const fresh = { id: nextId++, text: e.text };
  if (e.kind === "insert_after") out.splice(a + 1, 0, fresh);
  else if (e.kind === "replace") out.splice(a, 1, fresh);
  else out.splice(a, e.span);
  return out;
}

type Verdict = "correct" | "refused" | "wrong";

/** Judges one edit's outcome; `next` is the model's file after it. */
function judge(
  before: string,
  after: string,
  want: Line[] | null,
): Verdict {
  if (after === before) return "refused";
  return want !== null && after === join_(want) ? "correct" : "wrong";
}

interface Tally {
  edits: number;
  correct: number;
  refused: number;
  wrong: number;
  chainsWhole: number;
  chains: number;
  conflictsRight: number;
}

const emptyTally = (): Tally => ({
  edits: 0,
  correct: 0,
  refused: 0,
  wrong: 0,
  chainsWhole: 0,
  chains: 0,
  conflictsRight: 0,
});

/** Walks a chain's outcomes (file text after each edit) through the model. */
function score(chain: Chain, afters: string[], t: Tally): void {
  const read = linesOf(chain.read);
  let now = read.slice();
  const gone = new Set<number>();
  let whole = true;
  const verdicts: Verdict[] = [];
  for (const [i, e] of chain.edits.entries()) {
    const d = chain.drift[i];
    if (d) {
      now.splice(Math.min(d.at, now.length), 0, { id: nextId++, text: d.text });
    }
    const before = join_(now);
    const want = intended(now, read, e, gone);
    const v = judge(before, afters[i], want);
    verdicts.push(v);
    t.edits++;
    t[v]++;
    if (v === "wrong") {
      whole = false;
      break;
    }
    if (v === "refused") whole = false;
    else {
      for (const l of now) {
        if (!want!.some((m) => m.id === l.id)) gone.add(l.id);
      }
      now = want!;
    }
  }
  t.chains++;
  if (whole) t.chainsWhole++;
  if (
    chain.conflict && verdicts[0] === "correct" && verdicts[1] === "refused"
  ) {
    t.conflictsRight++;
  }
}

function opText(e: Edit, read: string[], lean: boolean): string {
  const name = (i: number) =>
    lean ? `${i + 1}` : `${i + 1}:${lineHash(read[i])}`;
  if (e.kind === "insert_after") return `+ ${name(e.at)}\n~${e.text}`;
  if (e.kind === "replace") return `= ${name(e.at)}\n~${e.text}`;
  return `- ${name(e.at)}${e.span > 1 ? `..${name(e.at + e.span - 1)}` : ""}`;
}

/** Runs chains through a workspace; returns the file after each edit. */
async function runHashline(
  chains: Chain[],
  lean: boolean,
  rebase: boolean,
): Promise<string[][]> {
  const root = await mkdtemp(join(tmpdir(), "hashline-seq-"));
  const out: string[][] = [];
  try {
    for (const [c, chain] of chains.entries()) {
      const file = `f${c}.ts`;
      const path = join(root, file);
      await writeFile(path, chain.read);
      const ws = openWorkspace(root, { session: `s${c}`, history: false });
      await ws.read(file, { anchors: lean ? "lean" : "hash", limit: 100_000 });
      const read = chain.read.slice(0, -1).split("\n");
      const afters: string[] = [];
      for (const [i, e] of chain.edits.entries()) {
        const d = chain.drift[i];
        if (d) {
          const lines = (await readFile(path, "utf8")).slice(0, -1).split("\n");
          lines.splice(Math.min(d.at, lines.length), 0, d.text);
          await writeFile(path, lines.join("\n") + "\n");
        }
        const patch = `@@ ${file}\n${opText(e, read, lean)}`;
        await ws.patch(patch, { rebase, check: "off" }).catch((error) => {
          if (verbose) {
            console.error(`${chain.path}: ${patch}\n${error.message}\n`);
          }
        });
        afters.push(await readFile(path, "utf8"));
      }
      out.push(afters);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return out;
}

function peerOpsOf(e: Edit): string {
  const n = e.at + 1;
  if (e.kind === "insert_after") return `PUT >${n}:\n+${e.text}\n`;
  if (e.kind === "replace") return `PUT ${n}.=${n}:\n+${e.text}\n`;
  return `CUT ${n}.=${n + e.span - 1}\n`;
}

/** Runs chains through the peer in one Bun process. */
function runPeer(
  chains: Chain[],
): Promise<{ version: string; afters: string[][] }> {
  const input = {
    chains: chains.map((c) => ({
      path: c.path,
      read: c.read,
      steps: c.edits.map((e, i) => ({
        ...(c.drift[i]
          ? { insertAt: c.drift[i]!.at, insertText: c.drift[i]!.text }
          : {}),
        ops: peerOpsOf(e),
      })),
    })),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(PEER_PATHS.bun, [join(HERE, "peer_chain.ts")], {
      cwd: REPO,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) {
        return reject(
          new Error(`peer chain driver exited ${code}: ${err.slice(0, 400)}`),
        );
      }
      const parsed = JSON.parse(out) as {
        version: string;
        results: { content: string }[][];
      };
      resolve({
        version: parsed.version,
        afters: parsed.results.map((r) => r.map((s) => s.content)),
      });
    });
    child.stdin.end(JSON.stringify(input));
  });
}

/** The judge must call a planted wrong edit wrong, or the figures mean nothing. */
function checkJudge(chain: Chain): void {
  const read = linesOf(chain.read);
  const e = chain.edits[0];
  const want = intended(read.slice(), read, e, new Set())!;
  const planted = read.slice();
  planted.splice(e.at + 1, 1, { id: -1, text: e.text || "planted" });
  if (judge(join_(read), join_(planted), want) !== "wrong") {
    throw new Error("The judge did not catch a planted wrong edit.");
  }
  if (judge(join_(read), join_(want), want) !== "correct") {
    throw new Error("The judge did not accept the intended edit.");
  }
}

const args = parseArgs({
  options: {
    files: { type: "string", default: "6" },
    seed: { type: "string", default: "7" },
    "no-peer": { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
  },
});
const verbose = args.values.verbose;
const seed = Number(args.values.seed);
const sources = await loadSources({
  nodeModules: join(REPO, "bench", "node_modules"),
  seed,
  filesPerPackage: Number(args.values.files),
});
const peerWhy = args.values["no-peer"] ? "--no-peer" : peerUnavailable();

const columns = [
  ["hashline L:HH, rebase off", false, false],
  ["hashline L:HH, rebase on", false, true],
  ["hashline bare numbers, rebase off", true, false],
  ["hashline bare numbers, rebase on", true, true],
] as const;

console.log(
  `k edits from one read, each its own call: ${sources.files.length} files (${
    sources.packages.map((p) => `${p.name} ${p.version}`).join(", ")
  }), seed ${seed}`,
);
const rows: string[] = [];
let peerVersion = "";
for (const c of CASES) {
  const rng = createRng(deriveSeed(seed, "sequence", c.name));
  const chains = sources.files.map((f) => makeChain(rng, f.path, f.text, c));
  checkJudge(chains[0]);
  const runs: [string, string[][]][] = [];
  for (const [label, lean, rebase] of columns) {
    if (c.drift && !rebase) continue;
    runs.push([label, await runHashline(chains, lean, rebase)]);
  }
  if (!peerWhy) {
    const peer = await runPeer(chains);
    peerVersion = peer.version;
    runs.push([`${PEER_NAME} ${peer.version}`, peer.afters]);
  }
  for (const [label, afters] of runs) {
    const t = emptyTally();
    chains.forEach((ch, i) => score(ch, afters[i], t));
    rows.push(
      `| ${c.name} | ${label} | ${t.chains} | ${t.chainsWhole} | ${t.edits} | ${t.correct} | ${t.refused} | ${t.wrong} |${
        c.conflict ? ` ${t.conflictsRight}/${t.chains}` : " –"
      } |`,
    );
  }
}
console.log(
  "\n| case | applier | chains | chains landed whole | edits | correct | refused | wrong | conflict: first lands, second refused |",
);
console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const r of rows) console.log(r);
if (peerWhy) console.log(`\n${PEER_NAME} not run: ${peerWhy}.`);
else {console.log(
    `\nPeer: ${PEER_NAME} ${peerVersion} under Bun, one tag per chain.`,
  );}

/**
 * What resolving through views costs: a 10-edit chain from one read of a
 * 10,000-line file, beside the same 10 edits each after a fresh read (what
 * a chain cost before views), in one run.
 */
async function chainCost(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), "hashline-seq-cost-"));
  try {
    const lines = Array.from(
      { length: 10_000 },
      (_, i) => `const v${i} = ${i};`,
    );
    const text = lines.join("\n") + "\n";
    const at = Array.from({ length: 10 }, (_, k) => 500 + k * 900);
    const time = async (reread: boolean): Promise<number> => {
      await writeFile(join(root, "big.ts"), text);
      const ws = openWorkspace(root, {
        session: reread ? "r" : "v",
        history: false,
      });
      await ws.read("big.ts", { limit: 100_000 });
      const started = performance.now();
      for (const [k, n] of at.entries()) {
        if (reread) await ws.read("big.ts", { limit: 100_000 });
        // From the one read: line n as read is line n + k now (k inserts above).
        const line = reread ? n + k : n;
        await ws.patch(
          `@@ big.ts\n+ ${line}:${lineHash(lines[n - 1])}\n~// note ${k}`,
          {
            check: "off",
          },
        );
      }
      return (performance.now() - started) / at.length;
    };
    await time(false);
    const views = await time(false);
    const reread = await time(true);
    console.log(
      `\n10 edits from one read of a 10,000-line file: ${
        views.toFixed(2)
      } ms per edit; each after a fresh read of the whole file: ${
        reread.toFixed(2)
      } ms per edit (${(reread / views).toFixed(2)}× as long).`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
await chainCost();
