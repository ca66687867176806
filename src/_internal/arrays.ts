/**
 * Array helpers shared by every layer.
 *
 * @module
 */

/**
 * Appends every item of `items` to `into`, one at a time. A spread
 * (`into.push(...items)`) passes each item as an argument, and an argument
 * list of a few hundred thousand lines overflows the call stack.
 *
 * @param into The array to grow.
 * @param items What to add, in order.
 * @returns `into`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pushAll } from "./arrays.ts";
 * assert.deepEqual(pushAll([1], [2, 3]), [1, 2, 3]);
 * ```
 */
export function pushAll<T>(into: T[], items: Iterable<T>): T[] {
  for (const item of items) into.push(item);
  return into;
}
