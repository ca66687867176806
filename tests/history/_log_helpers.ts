/** Records and temp folders for the unit tests of `src/history/log/`. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeRecord } from "../../src/history/record.ts";
import type { EntryRecord } from "../../src/history/types.ts";

/** A small well-formed record with this id. */
export function recordOf(id: string, summary = `edit ${id}`): EntryRecord {
  return makeRecord({
    id,
    session: "s",
    door: "library",
    summary,
    files: [{ path: "f.txt", added: 1, removed: 0, hunks: [] }],
  });
}

/** A fresh temp folder and a way to remove it. */
export function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "hashline-log-"));
  return {
    dir,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
