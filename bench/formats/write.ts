/**
 * Writing the results: the formats section of `bench/RESULTS.md` and of the
 * README, each between `<!-- formats:begin -->` and `<!-- formats:end -->`
 * (rewritten in place, the rest of either file left alone), and the charts.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import process from "node:process";
import {
  driftChart,
  renderReadmeBlock,
  renderResults,
  tokenChart,
} from "./report.ts";
import type { RunResult } from "./run.ts";

/** Marker opening the generated block. */
export const BEGIN = "<!-- formats:begin -->";
/** Marker closing it. */
export const END = "<!-- formats:end -->";

/**
 * Puts `block` between the markers of `doc`; without markers, inserts it at
 * the end of the section whose heading is `section` (or at the end).
 *
 * @param doc The document.
 * @param block The generated text.
 * @param section A `## ` heading to append the block to when no markers exist.
 * @returns The new document.
 */
export function replaceBlock(
  doc: string,
  block: string,
  section?: string,
): string {
  const wrapped = `${BEGIN}\n\n${block.trim()}\n\n${END}`;
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  if (a >= 0 && b > a) {
    return doc.slice(0, a) + wrapped + doc.slice(b + END.length);
  }
  if (section !== undefined) {
    const h = doc.indexOf(`\n${section}\n`);
    if (h >= 0) {
      const next = doc.indexOf("\n## ", h + section.length + 2);
      const at = next < 0 ? doc.length : next + 1;
      return doc.slice(0, at).replace(/\n*$/, "\n\n") + wrapped + "\n\n" +
        doc.slice(at);
    }
  }
  return doc.replace(/\n*$/, doc === "" ? "" : "\n\n") + wrapped + "\n";
}

/** Where to write. */
export interface OutputPaths {
  /** `bench/RESULTS.md`. */
  results: string;
  /** The README (left alone when undefined). */
  readme?: string;
  /** Folder for the SVG charts. */
  charts: string;
  /** The line naming date, machine and runtime (RESULTS.md only). */
  runLine?: string;
  /** A Deno binary to run `deno fmt` on what was written (skipped when undefined). */
  deno?: string;
}

async function readOr(path: string, fallback: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return fallback;
  }
}

/**
 * Writes the results page, the README block and the charts.
 *
 * @param result The run.
 * @param paths Where.
 * @returns The paths written.
 */
export async function writeOutputs(
  result: RunResult,
  paths: OutputPaths,
): Promise<string[]> {
  await mkdir(paths.charts, { recursive: true });
  const drift = join(paths.charts, "formats-drift.svg");
  const tokens = join(paths.charts, "formats-tokens.svg");
  await writeFile(drift, driftChart(result));
  await writeFile(tokens, tokenChart(result));
  const written = [drift, tokens];

  const fromResults = relative(dirname(paths.results), paths.charts) || ".";
  const body = renderResults(result, fromResults);
  const results = await readOr(paths.results, "# Benchmark results\n");
  const block = paths.runLine ? `${paths.runLine}\n\n${body}` : body;
  await mkdir(dirname(paths.results), { recursive: true });
  await writeFile(paths.results, replaceBlock(results, block));
  written.push(paths.results);

  if (paths.readme !== undefined) {
    const fromReadme = relative(dirname(paths.readme), paths.charts) || ".";
    const readme = await readOr(paths.readme, "");
    await writeFile(
      paths.readme,
      replaceBlock(
        readme,
        renderReadmeBlock(result, fromReadme),
        "## Benchmarks",
      ),
    );
    written.push(paths.readme);
  }
  if (paths.deno !== undefined) {
    // `deno fmt --check` covers Markdown and SVG: write what it would write.
    const r = spawnSync(paths.deno, ["fmt", "-q", ...written], {
      encoding: "utf8",
    });
    if (r.status !== 0) {
      throw new Error(
        `deno fmt failed on ${written.join(", ")}: ${r.stderr.trim()}`,
      );
    }
  }
  return written;
}

/**
 * The Deno binary to format with: this process when it is Deno, else the
 * one installed from npm.
 *
 * @param repo The repository root.
 * @returns Its path.
 */
export function denoBinary(repo: string): string {
  return basename(process.execPath).startsWith("deno")
    ? process.execPath
    : join(repo, "node_modules", ".bin", "deno");
}
