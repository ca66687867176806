/**
 * Reading a command's string and whole-number flags, with the error a bad
 * value gets.
 *
 * @module
 */
import type { CliContext } from "./_context.ts";

/**
 * Reads a string flag.
 *
 * @param ctx The command's context.
 * @param name The flag's name.
 * @returns Its value, or undefined when not given.
 */
export function stringFlag(ctx: CliContext, name: string): string | undefined {
  const v = ctx.values[name];
  return typeof v === "string" ? v : undefined;
}

/**
 * Reads a whole-number flag.
 *
 * @param ctx The command's context.
 * @param name The flag's name.
 * @param min The smallest value accepted.
 * @returns The number, or undefined when not given.
 * @throws {TypeError} When the value is not a whole number ≥ min.
 */
export function intFlag(
  ctx: CliContext,
  name: string,
  min = 1,
): number | undefined {
  const v = stringFlag(ctx, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min) {
    throw new TypeError(
      `flag --${name} of ${ctx.spec.name} must be a whole number ≥ ${min}, got "${v}"; see hashline ${ctx.spec.name} --help`,
    );
  }
  return Number(v);
}
