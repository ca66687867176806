/**
 * A command-line flag that picks one of a closed list, or, left out, all
 * of it: the benches' scripts exit 2 naming the list on anything else.
 *
 * @module
 */
import process from "node:process";

/**
 * The values a `--flag` picks.
 *
 * @param flag The flag's name, without dashes (for the message).
 * @param value What was given, or undefined.
 * @param all Every allowed value, in order.
 * @returns `[value]`, or `all` when none was given.
 */
export function choice<T extends string>(
  flag: string,
  value: string | undefined,
  all: readonly T[],
): readonly T[] {
  if (value === undefined) return all;
  if (!(all as readonly string[]).includes(value)) {
    console.error(`--${flag} must be one of ${all.join(", ")}.`);
    process.exit(2);
  }
  return [value as T];
}
