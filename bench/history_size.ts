/**
 * Benchmark (not a test): what the edit history costs on disk. Runs N
 * one-line patches (read one line, replace it) on a generated text file of
 * SIZE MiB, then prints the size of the state folder, of its history, and
 * the bytes per entry.
 *
 *   node_modules/.bin/deno run -A bench/history_size.ts [--size=MiB] [--patches=N] [--json]
 *
 * Defaults: 1024 MiB and 1,000 patches. Past 64 MiB a patch streams the
 * file and rewrites it whole (about 2 s per patch at 1 GiB on a laptop
 * disk), so the full default takes over half an hour and writes a terabyte;
 * the entry's size does not depend on the file's (that is what this
 * measures), so a run of fewer patches on the big file and one of 1,000 on
 * a smaller one tell the same story (see RESULTS in the README's history
 * section).
 *
 * @module
 */
import { mkdtemp, open, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { openWorkspace } from "../src/workspace/mod.ts";

function arg(name: string, fallback: number): number {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  const v = a === undefined ? fallback : Number(a.slice(name.length + 3));
  if (!(v > 0)) throw new RangeError(`--${name} must be a positive number.`);
  return v;
}

const SIZE_MIB = arg("size", 1024);
const PATCHES = Math.floor(arg("patches", 1000));
const JSON_OUT = process.argv.includes("--json");

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += await folderBytes(p);
    else if (e.isFile()) total += (await stat(p)).size;
  }
  return total;
}

const base = await mkdtemp(join(tmpdir(), "hashline-histsize-"));
const root = join(base, "root");
const state = join(base, "state");
await import("node:fs/promises").then((fs) => fs.mkdir(root));
const file = join(root, "big.ts");
try {
  // A source-like file of SIZE MiB, written in 4 MiB chunks.
  const target = Math.round(SIZE_MIB * 1024 ** 2);
  const h = await open(file, "w");
  let lines = 0;
  let written = 0;
  while (written < target) {
    const parts: string[] = [];
    let n = 0;
    while (n < 4 * 1024 ** 2) {
      const l = `export const value${lines} = ${lines * 7} + compute(${
        lines % 97
      });\n`;
      parts.push(l);
      n += l.length;
      lines++;
    }
    const chunk = new TextEncoder().encode(parts.join(""));
    await h.write(chunk);
    written += chunk.length;
  }
  await h.close();

  const ws = openWorkspace(root, { stateDir: state, door: "library" });
  const t0 = performance.now();
  const step = Math.max(1, Math.floor(lines / (PATCHES + 1)));
  for (let i = 0; i < PATCHES; i++) {
    const at = 1 + i * step;
    const view = await ws.read("big.ts", { offset: at, limit: 1 });
    const anchor = view.text.slice(0, view.text.indexOf("|"));
    await ws.patch({
      files: [{
        path: "big.ts",
        ops: [{ op: "replace", start: anchor, lines: [`// patched ${i}`] }],
      }],
    });
  }
  const ms = performance.now() - t0;
  const stateBytes = await folderBytes(state);
  const historyBytes = await folderBytes(join(state, "history"));
  const entries = (await ws.history({ limit: PATCHES + 10 })).length;
  const result = {
    fileBytes: written,
    lines,
    patches: PATCHES,
    entries,
    stateBytes,
    historyBytes,
    bytesPerEntry: Math.round(historyBytes / Math.max(1, entries)),
    msPerPatch: Math.round(ms / PATCHES),
  };
  console.log(
    `${PATCHES} one-line patches of a ${
      (written / 1024 ** 2).toFixed(0)
    } MiB file (${lines} lines): state folder ${
      (stateBytes / 1024).toFixed(1)
    } KiB, history ${
      (historyBytes / 1024).toFixed(1)
    } KiB (${entries} entries, ${result.bytesPerEntry} B each), ${result.msPerPatch} ms per patch`,
  );
  if (JSON_OUT) console.log(`RESULT ${JSON.stringify(result)}`);
} finally {
  await rm(base, { recursive: true, force: true });
}
