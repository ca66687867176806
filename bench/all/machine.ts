/**
 * The machine and runtimes a results page was measured on: CPU count
 * (`nproc`), CPU model and memory from `/proc`, load at the start, and the
 * Deno, Bun and Node versions the benches ran under.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg, type as osType } from "node:os";
import { join } from "node:path";
import process from "node:process";

/** Where and when. */
export interface Machine {
  /** ISO date of the run, `YYYY-MM-DD`. */
  date: string;
  /** `nproc`. */
  nproc: number;
  /** CPU model name, from `/proc/cpuinfo`. */
  cpu: string;
  /** Total memory in GiB, from `/proc/meminfo`. */
  memoryGiB: number;
  /** Operating system and architecture. */
  os: string;
  /** 1-minute load average when the run began. */
  load: number;
  /** Runtime versions, or "not found". */
  deno: string;
  bun: string;
  node: string;
}

/**
 * The first `model name` of a `/proc/cpuinfo` text.
 *
 * @param cpuinfo The file's text.
 * @returns The model, or "unknown CPU".
 */
export function cpuModel(cpuinfo: string): string {
  const m = /^model name\s*:\s*(.+)$/m.exec(cpuinfo);
  return m ? m[1].trim() : "unknown CPU";
}

/**
 * `MemTotal` of a `/proc/meminfo` text, in GiB.
 *
 * @param meminfo The file's text.
 * @returns GiB, or 0 when the line is missing.
 */
export function memTotalGiB(meminfo: string): number {
  const m = /^MemTotal:\s*(\d+)\s*kB/m.exec(meminfo);
  return m ? Number(m[1]) / 1024 ** 2 : 0;
}

function readOr(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function version(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  if (r.error || r.status !== 0) return "not found";
  return (r.stdout.split("\n")[0] ?? "").trim().replace(/^v/, "");
}

/**
 * Describes this machine now.
 *
 * @param repo The repository root (Deno and Bun come from its node_modules).
 * @param deno The Deno binary the benches run under.
 * @returns The description.
 */
export function describeMachine(repo: string, deno: string): Machine {
  const nproc = Number(version("nproc", []));
  return {
    date: new Date().toISOString().slice(0, 10),
    nproc: nproc > 0 ? nproc : availableParallelism(),
    cpu: cpuModel(readOr("/proc/cpuinfo")),
    memoryGiB: memTotalGiB(readOr("/proc/meminfo")),
    os: `${osType()} ${process.arch}`,
    load: loadavg()[0],
    deno: version(deno, ["--version"]).replace(/^deno /, "").replace(
      / \(.*$/,
      "",
    ),
    bun: version(join(repo, "node_modules", ".bin", "bun"), ["--version"]),
    node: version("node", ["--version"]),
  };
}

/**
 * One sentence naming the machine, runtimes and date.
 *
 * @param m The machine.
 * @returns The sentence (Markdown).
 */
export function machineLine(m: Machine): string {
  return `${m.date}, ${m.os}, \`nproc\` ${m.nproc}, ${m.cpu}, ${
    m.memoryGiB.toFixed(1)
  } GiB memory, load ${
    m.load.toFixed(2)
  } at the start; Deno ${m.deno}, Bun ${m.bun}, Node ${m.node}`;
}
