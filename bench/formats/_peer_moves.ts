/**
 * Bun child of the moves bench: applies `@oh-my-pi/hashline` patches (its
 * `CUT`/`PUT` registers) to files held in memory. Reads
 * `{ files: { [path]: text }, patch }` on stdin, where `#TAG` in the patch
 * stands for each section's snapshot tag, and prints
 * `{ ok, files?, error? }`.
 *
 * @module
 */
import {
  InMemoryFilesystem,
  InMemorySnapshotStore,
  Patch,
  Patcher,
} from "@oh-my-pi/hashline";
import { Buffer } from "node:buffer";
import process from "node:process";

const chunks: Uint8Array[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Uint8Array);
const input = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
  files: Record<string, string>;
  patch: string;
};
const fs = new InMemoryFilesystem(Object.entries(input.files));
const snapshots = new InMemorySnapshotStore();
let patch = input.patch;
for (const [path, text] of Object.entries(input.files)) {
  const lines = text.split("\n").length;
  const tag = snapshots.record(
    path,
    text,
    Array.from({ length: lines }, (_, i) => i + 1),
  );
  patch = patch.replaceAll(`[${path}#TAG]`, `[${path}#${tag}]`);
}
try {
  await new Patcher({ fs, snapshots }).apply(Patch.parse(patch));
  const files: Record<string, string> = {};
  for (const path of Object.keys(input.files)) {
    files[path] = await fs.readText(path);
  }
  console.log(JSON.stringify({ ok: true, files }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, error: String(error) }));
}
