/**
 * Runs `@oh-my-pi/hashline` (Bun-only) on chains of edits from one read:
 * JSON on stdin, JSON on stdout. For each chain the file as read is written
 * to an in-memory filesystem and its snapshot recorded (every line shown);
 * then each step optionally inserts another party's line into the file on
 * disk and applies one patch under the read's header (one tag for the whole
 * chain), recording the file after it.
 *
 *   echo '{"chains":[...]}' | node_modules/.bin/bun bench/sequence/peer_chain.ts
 *
 * Input: `{ chains: [{ path, read, steps: [{ insertAt?, insertText?, ops }] }] }`.
 * Output: `{ version, results: [[{ written, content, reason? }, …], …] }`.
 *
 * @module
 */
// @ts-nocheck: Bun-only; the package is typed against `bun-types`.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import {
  formatHashlineHeader,
  InMemoryFilesystem,
  InMemorySnapshotStore,
  Patch,
  Patcher,
} from "@oh-my-pi/hashline";

// The package's own package.json, found above its entry point.
let dir = dirname(fileURLToPath(import.meta.resolve("@oh-my-pi/hashline")));
while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) {
  dir = dirname(dir);
}
const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));

const input = JSON.parse(await Bun.stdin.text());
const results = [];
for (const chain of input.chains) {
  const fs = new InMemoryFilesystem();
  const snapshots = new InMemorySnapshotStore();
  const read = String(chain.read);
  await fs.writeText(chain.path, read);
  const shown = read.endsWith("\n") ? read.slice(0, -1) : read;
  const count = shown === "" ? 0 : shown.split("\n").length;
  const tag = snapshots.record(
    chain.path,
    read,
    Array.from({ length: count }, (_, i) => i + 1),
  );
  const header = formatHashlineHeader(chain.path, tag);
  const out = [];
  for (const step of chain.steps) {
    if (step.insertText !== undefined) {
      const lines = (await fs.readText(chain.path)).split("\n");
      lines.splice(step.insertAt, 0, step.insertText);
      await fs.writeText(chain.path, lines.join("\n"));
    }
    const before = await fs.readText(chain.path);
    const patcher = new Patcher({ fs, snapshots });
    try {
      await patcher.apply(Patch.parse(`${header}\n${step.ops}`));
      out.push({ written: true, content: await fs.readText(chain.path) });
    } catch (e) {
      const now = await fs.readText(chain.path);
      out.push({
        written: now !== before,
        content: now,
        reason: String(e?.message ?? e).split("\n")[0],
      });
    }
  }
  results.push(out);
}
process.stdout.write(JSON.stringify({ version: pkg.version, results }));
