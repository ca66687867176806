/** Sample files for block-anchor tests, with a helper that anchors a line. */
import { lineHash } from "../../src/hash/fnv.ts";

/** `N:HH` of line `n` of `text`. */
export function at(text: string, n: number): string {
  return `${n}:${lineHash(text.split("\n")[n - 1])}`;
}

/** A TypeScript file: a documented export, a decorated class with methods. */
export const TS = [
  'import { x } from "y";', // 1
  "", // 2
  "/** Adds one. */", // 3
  "export function inc(a: number): number {", // 4
  "  return a + 1;", // 5
  "}", // 6
  "", // 7
  "@Injectable()", // 8
  "export class Service {", // 9
  "  get(id: string) {", // 10
  "    return id;", // 11
  "  }", // 12
  "", // 13
  "  put(id: string) {", // 14
  "    if (id) {", // 15
  "      return 1;", // 16
  "    }", // 17
  "  }", // 18
  "}", // 19
  "", // 20
].join("\n");

/** A Python file with a decorated def. */
export const PY = [
  "import os", // 1
  "", // 2
  "@app.route('/')", // 3
  "def index():", // 4
  "    return os.getcwd()", // 5
  "", // 6
  "x = 1", // 7
  "", // 8
].join("\n");

/** A Markdown file with nested sections. */
export const MD = [
  "# Guide", // 1
  "", // 2
  "## Install", // 3
  "npm i", // 4
  "### From source", // 5
  "make", // 6
  "## Use", // 7
  "run it", // 8
  "", // 9
].join("\n");

/** A JSON file with nested pairs. */
export const JSON_TEXT = [
  "{", // 1
  '  "name": "kit",', // 2
  '  "scripts": {', // 3
  '    "test": "deno test"', // 4
  "  },", // 5
  '  "private": true', // 6
  "}", // 7
  "", // 8
].join("\n");
