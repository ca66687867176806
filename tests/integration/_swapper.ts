/**
 * The path swapper of the race tests: a small C program (compiled here with
 * `cc`) or, failing that, a Python `ctypes` script, either of which
 * exchanges two paths with `renameat2(RENAME_EXCHANGE)` in a tight loop for
 * a bounded time and leaves them as they were.
 */
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const C_SOURCE = fileURLToPath(new URL("./_swap.c", import.meta.url));
const PY_SOURCE = fileURLToPath(new URL("./_swap.py", import.meta.url));

/** A working swapper. */
export interface Swapper {
  /** How it is built: `"c"` or `"python"`. */
  kind: string;
  /**
   * Exchanges `a` and `b` for `ms` milliseconds, then leaves them as they
   * were.
   *
   * @returns How many exchanges it made.
   */
  run(a: string, b: string, ms: number): Promise<number>;
}

function exec(
  cmd: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let child;
    try {
      child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      resolve({ code: -1, stdout, stderr: String(error) });
      return;
    }
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (d: string) => (stdout += d));
    child.stderr.on("data", (d: string) => (stderr += d));
    child.on("error", (e) => resolve({ code: -1, stdout, stderr: String(e) }));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function swapperOf(kind: string, cmd: string, lead: string[]): Swapper {
  return {
    kind,
    run: async (a, b, ms) => {
      const r = await exec(cmd, [...lead, a, b, String(ms)]);
      if (r.code !== 0) {
        throw new Error(`the ${kind} swapper failed (${r.code}): ${r.stderr}`);
      }
      return Number(r.stdout.trim());
    },
  };
}

async function works(s: Swapper, dir: string): Promise<string | null> {
  const probe = join(dir, "probe");
  await mkdir(probe, { recursive: true });
  await writeFile(join(probe, "a"), "a");
  await writeFile(join(probe, "b"), "b");
  try {
    await s.run(join(probe, "a"), join(probe, "b"), 1);
    return null;
  } catch (error) {
    return String((error as Error).message);
  }
}

/**
 * Builds a swapper in `dir`.
 *
 * @returns The swapper, or why none works here (the tests then skip).
 */
export async function buildSwapper(dir: string): Promise<Swapper | string> {
  const why: string[] = [];
  const bin = join(dir, "swap");
  const cc = await exec("cc", ["-O2", "-o", bin, C_SOURCE]);
  if (cc.code === 0) {
    const s = swapperOf("c", bin, []);
    const fail = await works(s, dir);
    if (fail === null) return s;
    why.push(`the C swapper does not run: ${fail}`);
  } else why.push(`cc failed: ${cc.stderr.trim().slice(0, 200)}`);
  const py = swapperOf("python", "python3", [PY_SOURCE]);
  const fail = await works(py, dir);
  if (fail === null) return py;
  why.push(`python3 ctypes renameat2 does not run: ${fail.slice(0, 200)}`);
  return why.join("; ");
}
