/**
 * The agent loop's per-call cost over MCP stdio, side by side with the
 * reference `@modelcontextprotocol/server-filesystem` in the same run: a
 * read of a 300-line file and a one-line edit of it, repeated, through the
 * SDK's own client. Then the same round trip after the session has read 40
 * files of 5,000 lines (its read records are then large), against the fresh
 * figure.
 *
 * Run: `deno task bench:mcp [rounds] [--json]` (default 40 rounds; `--json`
 * adds a last line `RESULT {json}` with the figures).
 *
 * @module
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { printSummary } from "./_summary.ts";

const positional = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const rounds = Number(positional[0] ?? 40);
const REPO = fileURLToPath(new URL("../", import.meta.url));
const DENO = join(REPO, "node_modules", ".bin", "deno");
const REFERENCE = join(
  REPO,
  "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
);

function env(extra: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined) out[k] = v;
  }
  return { ...out, ...extra };
}

async function connect(
  command: string,
  args: string[],
  extra: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command,
      args,
      env: env(extra),
      stderr: "pipe",
    }),
  );
  return client;
}

function text(result: unknown): string {
  const content = (result as { content: { text: string }[] }).content;
  return content.map((c) => c.text).join("\n");
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const LINES = 300;
const body = (tag: string) =>
  Array.from(
    { length: LINES },
    (_, i) => i === 149 ? `const target = "${tag}";` : `const line${i} = ${i};`,
  ).join("\n") + "\n";

/** The anchor `150:HH` of line 150 in a read or a refusal's fresh lines. */
function anchor150(view: string): string | undefined {
  const row = view.split("\n").find((l) => l.startsWith("150:"));
  return row?.slice(0, row.indexOf("|"));
}

/**
 * One hashline round trip: read the file, replace line 150 using its
 * anchor. About 1 edit in 256 gets a new line whose short hash matches the
 * line it replaced; the next edit's anchor is then refused once as
 * ambiguous, with fresh anchors, and resent from them as a model would
 * (that round pays for the extra call).
 */
async function hashlineRound(c: Client, path: string, i: number) {
  const view = text(
    await c.callTool({ name: "read_file", arguments: { path } }),
  );
  const edit = (start: string) =>
    c.callTool({
      name: "edit_file",
      arguments: {
        path,
        ops: [{ op: "replace", start, lines: [`const target = "v${i}";`] }],
      },
    });
  let out = await edit(anchor150(view)!);
  const fresh = out.isError ? anchor150(text(out)) : undefined;
  if (fresh && /ambiguous/.test(text(out))) out = await edit(fresh);
  if (out.isError) throw new Error(text(out));
}

/** One reference round trip: read the file, replace line 150's text. */
async function referenceRound(c: Client, path: string, i: number) {
  const view = text(
    await c.callTool({ name: "read_text_file", arguments: { path } }),
  );
  const old = view.split("\n").find((l) => l.startsWith("const target"))!;
  const out = await c.callTool({
    name: "edit_file",
    arguments: {
      path,
      edits: [{ oldText: old, newText: `const target = "v${i}";` }],
    },
  });
  if (out.isError) throw new Error(text(out));
}

async function time(
  n: number,
  round: (i: number) => Promise<void>,
): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < 5; i++) await round(-i - 1);
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await round(i);
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

const dir = await mkdtemp(join(tmpdir(), "hashline-mcp-bench-"));
try {
  const root = join(dir, "root");
  await mkdir(root);
  await writeFile(join(root, "a.ts"), body("start"));
  await writeFile(join(root, "b.ts"), body("start"));
  const big = Array.from({ length: 5000 }, (_, i) => `row ${i} of a big file`)
    .join("\n") + "\n";
  for (let k = 0; k < 40; k++) await writeFile(join(root, `big${k}.txt`), big);

  const underNode = process.argv.includes("--node");
  const ours = await connect(
    underNode ? "node" : DENO,
    underNode
      ? [
        "--import",
        "tsx",
        join(REPO, "src/cli/main.ts"),
        "mcp",
        "--root",
        root,
      ]
      : [
        "run",
        "-A",
        ...(process.env.HASHLINE_BENCH_PROF
          ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.HASHLINE_BENCH_PROF}`]
          : []),
        join(REPO, "src/cli/main.ts"),
        "mcp",
        "--root",
        root,
      ],
    { HASHLINE_STORE: join(dir, "state") },
  );
  const reference = await connect("node", [
    REFERENCE,
    root,
  ]);
  const refMs = await time(rounds, (i) => referenceRound(reference, "a.ts", i));
  const freshMs = await time(rounds, (i) => hashlineRound(ours, "b.ts", i));
  for (let k = 0; k < 40; k++) {
    await ours.callTool({
      name: "read_file",
      arguments: { path: `big${k}.txt`, limit: 5000 },
    });
  }
  const loadedMs = await time(rounds, (i) => hashlineRound(ours, "b.ts", i));
  await ours.close();
  await reference.close();

  console.log(
    `MCP stdio read + one-line edit of a ${LINES}-line file, median of ${rounds} rounds`,
  );
  console.log(
    `reference server-filesystem: ${
      refMs.toFixed(2)
    } ms; hashline fresh session: ${freshMs.toFixed(2)} ms (${
      (freshMs / refMs).toFixed(2)
    }× the reference); after 40 reads of 5,000 lines: ${
      loadedMs.toFixed(2)
    } ms (${(loadedMs / freshMs).toFixed(2)}× fresh)`,
  );
  console.log(
    `history on: ${
      (freshMs / refMs).toFixed(2)
    }× the reference server (target ≤ 1.50×, aim 1.20×)`,
  );
  printSummary("mcp", {
    runtime: underNode ? "node" : "deno",
    lines: LINES,
    rounds,
    referenceMs: refMs,
    freshMs,
    loadedMs,
  });
} finally {
  await rm(dir, { recursive: true, force: true });
}
