#!/usr/bin/env node
// `npm start`: runs `hashline serve` with the Deno that npm installed, and
// passes SIGINT, SIGTERM and SIGHUP on to it, so stopping the pid npm gives
// stops the server (npm → deno task → deno would drop them on the way).
// Arguments after `npm start --` go to `serve` (`npm start -- --port 9000`).
// Off a terminal the log carries no colour codes, and it never carries
// Deno's legacy-abort warning.
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
const env = { ...process.env };
if (!process.stdout.isTTY || !process.stderr.isTTY) env.NO_COLOR = "1";
const child = spawn(
  deno,
  [
    "run",
    "-A",
    "-q",
    // request.signal aborts only when a client goes away, so Deno prints no
    // legacy-behaviour warning into the log.
    "--unstable-no-legacy-abort",
    join(repo, "src", "cli", "main.ts"),
    "serve",
    ...process.argv.slice(2),
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
