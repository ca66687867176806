/**
 * The MCP round trip both MCP benches time (`mcp_roundtrip.ts`,
 * `mcp_compare.ts`): the servers, the file and one round of each.
 *
 * @module
 */
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const REPO = fileURLToPath(new URL("../", import.meta.url));
/** The repository's Deno. */
export const DENO: string = join(REPO, "node_modules", ".bin", "deno");
/** The reference server's entry point. */
export const REFERENCE: string = join(
  REPO,
  "bench/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
);

function env(extra: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined) out[k] = v;
  }
  return { ...out, ...extra };
}

/** A client of an MCP server started over stdio. */
export async function connect(
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

/** The text of a tool's answer. */
export function text(result: unknown): string {
  const content = (result as { content: { text: string }[] }).content;
  return content.map((c) => c.text).join("\n");
}

/** The median of `xs`. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** A file of `lines` lines whose line 150 is the one the rounds replace. */
export const body = (tag: string, lines: number): string =>
  Array.from(
    { length: lines },
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
export async function hashlineRound(
  c: Client,
  path: string,
  i: number,
): Promise<void> {
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
export async function referenceRound(
  c: Client,
  path: string,
  i: number,
): Promise<void> {
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
