#!/usr/bin/env node
// `npm start`: runs `hashline serve` with the Deno that npm installed, and
// passes SIGINT, SIGTERM and SIGHUP on to it, so stopping the pid npm gives
// stops the server (npm → deno task → deno would drop them on the way).
// Arguments after `npm start --` go to `serve` (`npm start -- --port 9000`).
// Without `--root` it serves the demo folder `examples/demo`, never the
// checkout's own sources, and says so.
// Off a terminal the log carries no colour codes.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const repo = dirname(dirname(fileURLToPath(import.meta.url)));
const deno = join(repo, "node_modules", ".bin", "deno");
if (!existsSync(deno)) {
  process.stderr.write("Run 'npm ci' first: Deno comes from npm.\n");
  process.exit(2);
}
const args = process.argv.slice(2);
const rooted = args.some((a) => a === "--root" || a.startsWith("--root="));
if (!rooted) {
  const demo = join(repo, "examples", "demo");
  args.unshift("--root", demo);
  process.stderr.write(
    `No --root given: serving the demo folder ${demo}.\n` +
      "Serve your project instead with: npm start -- --root /path/to/project\n",
  );
}
const env = { ...process.env };
if (!process.stdout.isTTY || !process.stderr.isTTY) env.NO_COLOR = "1";
const child = spawn(
  deno,
  [
    "run",
    "-A",
    "-q",
    join(repo, "src", "cli", "main.ts"),
    "serve",
    ...args,
  ],
  { cwd: repo, env, stdio: "inherit" },
);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
    }
  });
}
child.on("error", (error) => {
  process.stderr.write(`Cannot start the server: ${error.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  process.exitCode = code ??
    (signal === "SIGINT" || signal === "SIGTERM" ? 0 : 1);
});
