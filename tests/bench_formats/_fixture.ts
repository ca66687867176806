/**
 * A small hand-made task: a 30-line file with one bug on line 20.
 *
 * @module
 */
import type { Task } from "../../bench/formats/tasks.ts";

const body = Array.from(
  { length: 30 },
  (_, i) => `const v${i + 1} = ${i + 1};`,
);
body[19] = "if (count < limit) grow();";

/** The file as it should be. */
export const ORIGINAL: string = body.join("\n") + "\n";

/** The file with the bug (`<` became `<=`). */
export const BUGGY: string = ORIGINAL.replace(
  "count < limit",
  "count <= limit",
);

/** The task. */
export const TASK: Task = {
  id: "comparison-01",
  kind: "comparison",
  path: "demo/file.ts",
  original: ORIGINAL,
  buggy: BUGGY,
  note: "< → <=",
};
