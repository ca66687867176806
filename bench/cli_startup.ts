/**
 * Start-up cost of the command line, against an empty Deno script and the
 * read floor in the same run: `bin/hashline read` of a 300-line file (the
 * launcher the README documents, which runs the bundle in build/cli/,
 * rebuilt here first), the same read from the bundle and from source with
 * `deno run`, `--version` (parsing alone) and `deno task hashline read`
 * (the task runner on top). The floor is a Deno script that loads `node:fs`
 * and prints the same file, which any read with race-proof opens pays under
 * Deno; the goal is `bin/hashline read` within 1.5× of it.
 * Each is spawned N times, interleaved so machine noise hits all alike; the
 * median, the ratio to the empty script and the reads' ratios to the floor
 * are printed.
 *
 * Usage: deno run -A bench/cli_startup.ts [N] [--json]   (default 20; `--json`
 * adds a last line `RESULT {json}` with the medians)
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { printSummary } from "./_summary.ts";

const repo = fileURLToPath(new URL("..", import.meta.url));
const deno = join(repo, "node_modules", ".bin", "deno");
const runs = Number(
  process.argv.slice(2).filter((a) => !a.startsWith("--"))[0] ?? 20,
);
const dir = mkdtempSync(join(tmpdir(), "hashline-startup-"));
const main = join(repo, "src", "cli", "main.ts");
const bundled = join(repo, "build", "cli", "main.js");

// The bundle as the launcher would find it after `npm ci`: built from this
// source, so it is fresh.
const built = spawnSync(
  deno,
  ["run", "-A", join(repo, "scripts", "build_cli.ts")],
  { encoding: "utf8" },
);
if (built.status !== 0) throw new Error(`build_cli failed: ${built.stderr}`);

writeFileSync(join(dir, "empty.ts"), "");
writeFileSync(
  join(dir, "floor.ts"),
  'import { readFileSync } from "node:fs";\n' +
    'const bytes = readFileSync("f.txt");\n' +
    "let n = 0;\n" +
    "while (n < bytes.length) n += Deno.stdout.writeSync(bytes.subarray(n));\n",
);
writeFileSync(
  join(dir, "f.txt"),
  Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join("\n") + "\n",
);

const cases: {
  id: string;
  name: string;
  args: string[];
  cwd: string;
  /** The program spawned (default: Deno). */
  cmd?: string;
}[] = [
  {
    id: "empty",
    name: "empty Deno script",
    args: ["run", "-A", "empty.ts"],
    cwd: dir,
  },
  {
    id: "floor",
    name: "node:fs read-and-print floor",
    args: ["run", "-A", "floor.ts"],
    cwd: dir,
  },
  {
    id: "version",
    name: "hashline --version",
    args: ["run", "-A", main, "--version"],
    cwd: dir,
  },
  {
    id: "read",
    name: "hashline read (300 lines)",
    args: ["run", "-A", main, "read", "f.txt"],
    cwd: dir,
  },
  {
    id: "bundle",
    name: "bundled read (build/cli)",
    args: ["run", "-A", bundled, "read", "f.txt"],
    cwd: dir,
  },
  {
    id: "bin",
    name: "bin/hashline read",
    args: ["read", "f.txt"],
    cwd: dir,
    cmd: join(repo, "bin", "hashline"),
  },
  {
    id: "task",
    name: "deno task hashline read",
    args: ["task", "-q", "hashline", "read", join(dir, "f.txt"), "--root", dir],
    cwd: repo,
  },
];

function once(c: (typeof cases)[number]): number {
  const start = performance.now();
  const r = spawnSync(c.cmd ?? deno, c.args, {
    cwd: c.cwd,
    env: { ...process.env, HASHLINE_STORE: join(dir, ".state") },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`${c.name} failed: ${r.stderr}`);
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

try {
  const times = cases.map(() => [] as number[]);
  for (const c of cases) once(c); // warm the module cache
  for (let i = 0; i < runs; i++) {
    cases.forEach((c, k) => times[k].push(once(c)));
  }
  const base = median(times[0]);
  console.log(`CLI start-up, median of ${runs} spawns each (interleaved):`);
  cases.forEach((c, k) => {
    const m = median(times[k]);
    console.log(
      `  ${c.name.padEnd(28)} ${m.toFixed(1).padStart(7)} ms  ${
        (m / base).toFixed(2)
      }× the empty script`,
    );
  });
  const floorTimes = times[cases.findIndex((c) => c.id === "floor")];
  const of = (id: string) => times[cases.findIndex((c) => c.id === id)];
  const vsFloor = (id: string) => median(of(id)) / median(floorTimes);
  // The fastest spawn of each is the one other load on the machine touched
  // least: a second view when the medians are noisy.
  const best = Math.min(...of("bin")) / Math.min(...floorTimes);
  const ratio = vsFloor("bin");
  console.log(
    `  bin/hashline read vs the node:fs floor: ${
      ratio.toFixed(2)
    }× (goal ≤ 1.50×${ratio <= 1.5 ? ", met" : ", NOT met"}); fastest spawns: ${
      best.toFixed(2)
    }×`,
  );
  console.log(
    `  from source (deno run -A src/cli/main.ts read): ${
      vsFloor("read").toFixed(2)
    }× the floor; the bundle alone: ${vsFloor("bundle").toFixed(2)}×`,
  );
  printSummary("cli", {
    runs,
    readVsFloor: ratio,
    readVsFloorFastest: best,
    cases: cases.map((c, k) => ({
      id: c.id,
      name: c.name,
      medianMs: median(times[k]),
    })),
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
