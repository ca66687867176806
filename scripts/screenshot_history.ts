/**
 * Regenerates `docs/history.png`, the review page as the README shows it:
 * a temp workspace gets a few edits from different sessions and doors, a
 * real server serves it on 127.0.0.1:0, and Debian's chromium (through
 * playwright-core) photographs the list beside one entry.
 *
 * Usage: deno run -A scripts/screenshot_history.ts [OUT.png]
 *
 * @module
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./_chromium.ts";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import process from "node:process";
import { chromium } from "playwright-core";
import { startServer } from "../src/http/server.ts";
import { openWorkspace } from "../src/workspace/mod.ts";

const out = process.argv[2] ??
  new URL("../docs/history.png", import.meta.url).pathname;
const base = await mkdtemp(join(tmpdir(), "hashline-shot-"));
const root = join(base, "project");
const state = join(root, ".hashline");
await import("node:fs/promises").then((fs) => fs.mkdir(root));

await writeFile(
  join(root, "server.ts"),
  [
    'import { serve } from "./http.ts";',
    "",
    "const PORT = 8080;",
    "const RETRIES = 3;",
    "",
    "export function start() {",
    "  return serve({ port: PORT });",
    "}",
    "",
  ].join("\n"),
);
await writeFile(join(root, "README.md"), "# Demo\n\nA small service.\n");

function anchorsOf(text: string): string[] {
  return text.split("\n").map((l) => l.slice(0, l.indexOf("|")));
}

const agent = openWorkspace(root, {
  stateDir: state,
  session: "agent-7",
  door: "mcp",
});
let a = anchorsOf((await agent.read("server.ts")).text);
await agent.patch({
  files: [{
    path: "server.ts",
    ops: [
      {
        op: "replace",
        start: a[2],
        lines: ['const PORT = Number(Deno.env.get("PORT") ?? 8080);'],
      },
      {
        op: "replace",
        start: a[6],
        lines: ["  return serve({ port: PORT, retries: RETRIES });"],
      },
    ],
  }],
});
await agent.write(
  "CHANGELOG.md",
  "# Changelog\n\n- The port comes from $PORT.\n",
);
const human = openWorkspace(root, {
  stateDir: state,
  session: "alice",
  door: "cli",
});
a = anchorsOf((await human.read("README.md")).text);
await human.patch({
  files: [{
    path: "README.md",
    ops: [{ op: "append", lines: ["", "Set PORT to change the port."] }],
  }],
});
a = anchorsOf((await agent.read("server.ts")).text);
await agent.read("README.md");
const last = await agent.patch({
  files: [
    {
      path: "server.ts",
      ops: [{ op: "replace", start: a[3], lines: ["const RETRIES = 5;"] }],
    },
    {
      path: "README.md",
      ops: [{ op: "prepend", lines: ["<!-- generated docs below -->"] }],
    },
  ],
});

const server = await startServer({
  host: "127.0.0.1",
  port: 0,
  root,
  stateDir: state,
});
const profile = await mkdtemp(join(tmpdir(), "hashline-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM_PATH,
  headless: true,
  args: [...CHROMIUM_ARGS],
  viewport: { width: 1201, height: 760 },
  colorScheme: "light",
});
try {
  const page = context.pages()[0] ?? await context.newPage();
  // The page forbids framing, so each view is photographed on its own and
  // the two pictures are set side by side.
  const shot = async (path: string, width: number) => {
    await page.setViewportSize({ width, height: 760 });
    await page.goto(`${server.url}${path}`);
    const png = await page.screenshot();
    return `data:image/png;base64,${Buffer.from(png).toString("base64")}`;
  };
  const list = await shot("/", 480);
  const entry = await shot(`/history/${last.entry}`, 720);
  await page.setViewportSize({ width: 1201, height: 760 });
  // Off the served page, whose Content-Security-Policy allows no images.
  await page.goto("about:blank");
  await page.setContent(
    `<body style="margin:0;display:flex;background:#d0d7de;gap:1px"><img src="${list}"><img src="${entry}"></body>`,
  );
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await context.close();
  await server.close();
  await rm(profile, { recursive: true, force: true });
  await rm(base, { recursive: true, force: true });
}
