/**
 * Shared pieces of the integration tests: typed-refusal checks, a failure
 * detector for operations that must never block, dead process ids, and the
 * anchors of a read.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { HashlineError } from "../../src/errors.ts";
import { foldHash, lineHash32 } from "../../src/hash/fnv.ts";

/** The `L:HH` anchor of line `n` in a read's text. */
export function anchorAt(text: string, n: number): string {
  const line = text.split("\n").find((l) => l.startsWith(`${n}:`));
  if (!line) throw new Error(`line ${n} is not in the view:\n${text}`);
  return line.slice(0, line.indexOf("|"));
}

/**
 * Asserts that `error` is a typed refusal with one of `codes`, and returns
 * its code. Anything else (a TypeError from deep inside, a raw errno error)
 * fails with the error's own text, so the failure names the bug.
 */
export function typedCode(
  error: unknown,
  codes: readonly string[],
  what: string,
): string {
  if (!(error instanceof HashlineError)) {
    const e = error as Error;
    assert.fail(
      `${what}: expected a typed refusal (${codes.join("/")}), got ${
        e?.constructor?.name ?? typeof e
      } ${(e as { code?: string })?.code ?? ""}: ${e?.stack ?? String(e)}`,
    );
  }
  assert.ok(
    codes.includes(error.code),
    `${what}: refused with ${error.code}, expected one of ${
      codes.join("/")
    }: ${error.message}`,
  );
  return error.code;
}

/**
 * Settles `work`, or fails once `ms` passed: a detector for an operation
 * that blocks, never a way to wait for something.
 */
export async function finishesWithin<T>(
  work: Promise<T>,
  ms: number,
  what: string,
): Promise<PromiseSettledResult<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const blocked = Symbol("blocked");
  const late = new Promise<typeof blocked>((resolve) => {
    timer = setTimeout(() => resolve(blocked), ms);
  });
  const settled = work.then(
    (value): PromiseSettledResult<T> => ({ status: "fulfilled", value }),
    (reason): PromiseSettledResult<T> => ({ status: "rejected", reason }),
  );
  try {
    const first = await Promise.race([settled, late]);
    if (first === blocked) {
      assert.fail(`${what} did not finish within ${ms} ms`);
    }
    return first;
  } finally {
    clearTimeout(timer);
  }
}

/** The id of a process that has exited (and been reaped), so it is surely dead. */
export function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn("true", [], { stdio: "ignore" });
    child.on("error", reject);
    child.on("close", () => resolve(child.pid!));
  });
}

/** Counts of each outcome, for the messages of failed assertions and the printed totals. */
export function tally(codes: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of codes) out[c] = (out[c] ?? 0) + 1;
  return out;
}

/**
 * `base`, padded with dots until its 2-hex anchor differs from `old`'s. One
 * pair of lines in 256 shares a short hash; where a test is about locking,
 * not about that, its new lines avoid it (the collision has its own test).
 */
export function unlike(base: string, old: string): string {
  let line = base;
  while (foldHash(lineHash32(line)) === foldHash(lineHash32(old))) line += ".";
  return line;
}
