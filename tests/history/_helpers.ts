/** Shared set-up for the history tests. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Workspace } from "../../src/workspace/mod.ts";

/** The anchors (`N:HH`) of a file's lines, as a fresh read shows them. */
export async function anchors(ws: Workspace, path: string): Promise<string[]> {
  const view = await ws.read(path);
  if (view.text === "") return [];
  return view.text.split("\n").map((l) => l.slice(0, l.indexOf("|")));
}

/** A file's bytes as a string of hex pairs (exact comparisons). */
export async function bytesOf(root: string, path: string): Promise<string> {
  try {
    return Buffer.from(await readFile(join(root, path))).toString("hex");
  } catch {
    return "absent";
  }
}

import { Buffer } from "node:buffer";

/** The kinds of file every round trip covers, byte for byte. */
export const SHAPES: { name: string; content: string }[] = [
  { name: "lf.txt", content: "alpha\nbeta\ngamma\ndelta\n" },
  { name: "crlf.txt", content: "alpha\r\nbeta\r\ngamma\r\ndelta\r\n" },
  { name: "bom.txt", content: "\uFEFFalpha\nbeta\ngamma\ndelta\n" },
  { name: "nofinal.txt", content: "alpha\nbeta\ngamma\ndelta" },
];
