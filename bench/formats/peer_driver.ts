/**
 * Runs `@oh-my-pi/hashline` (Bun-only) on a batch of trials: JSON on stdin,
 * JSON on stdout. For each trial the file as read is written to an
 * in-memory filesystem and its snapshot recorded (every line shown), the
 * read is formatted with the package's own helpers (`[PATH#TAG]` and
 * `N:TEXT` lines), then the file on disk is replaced by its drifted text
 * and the patch (the header the read showed, then the ops) is applied by
 * the package's `Patcher`, which replays stale tags over the snapshot and
 * merges.
 *
 *   echo '{"trials":[...]}' | node_modules/.bin/bun bench/formats/peer_driver.ts
 *
 * Input: `{ trials: [{ path, read, disk, ops }] }`. Output:
 * `{ version, results: [{ read, header, written, content?, reason? }] }`.
 *
 * @module
 */
// @ts-nocheck: Bun-only; the package ships TypeScript for Bun and is typed
// against `bun-types`, which Deno and Node do not load.
import { readFileSync } from "node:fs";
import process from "node:process";
import { fileURLToPath } from "node:url";
import {
  formatHashlineHeader,
  formatNumberedLines,
  InMemoryFilesystem,
  InMemorySnapshotStore,
  Patch,
  Patcher,
} from "@oh-my-pi/hashline";

const pkg = JSON.parse(
  readFileSync(
    fileURLToPath(
      new URL(
        "../node_modules/@oh-my-pi/hashline/package.json",
        import.meta.url,
      ),
    ),
    "utf8",
  ),
);

const input = JSON.parse(await Bun.stdin.text());
const results = [];
for (const trial of input.trials) {
  const fs = new InMemoryFilesystem();
  const snapshots = new InMemorySnapshotStore();
  const read = String(trial.read).replace(/^\uFEFF/, "").replaceAll(
    "\r\n",
    "\n",
  );
  await fs.writeText(trial.path, trial.read);
  const shown = read.endsWith("\n") ? read.slice(0, -1) : read;
  const count = shown === "" ? 0 : shown.split("\n").length;
  const tag = snapshots.record(
    trial.path,
    read,
    Array.from({ length: count }, (_, i) => i + 1),
  );
  const header = formatHashlineHeader(trial.path, tag);
  const view = `${header}\n${formatNumberedLines(shown)}`;
  await fs.writeText(trial.path, trial.disk);
  const patcher = new Patcher({ fs, snapshots });
  try {
    await patcher.apply(Patch.parse(`${header}\n${trial.ops}`));
    results.push({
      read: view,
      header,
      written: true,
      content: await fs.readText(trial.path),
    });
  } catch (e) {
    const now = await fs.readText(trial.path);
    results.push(
      now === trial.disk
        ? {
          read: view,
          header,
          written: false,
          reason: String(e?.message ?? e).split("\n")[0],
        }
        : { read: view, header, written: true, content: now },
    );
  }
}
process.stdout.write(JSON.stringify({ version: pkg.version, results }));
