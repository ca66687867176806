/**
 * Child process of the history-id test: appends COUNT lines to its own
 * file TAG.txt, one patch each, and prints the entry id each acknowledged
 * patch was given, one per line (`ERR code message` when refused).
 *
 * Usage: _id_child.ts ROOT STATE TAG COUNT
 */
import process from "node:process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openWorkspace } from "../../src/workspace/mod.ts";

const [root, state, tag, count] = process.argv.slice(2);
const file = `${tag}.txt`;
await writeFile(join(root, file), "head\n");
const ws = openWorkspace(root, { stateDir: state, session: tag });
await ws.read(file, { limit: 1 });
const lines: string[] = [];
for (let i = 0; i < Number(count); i++) {
  try {
    const r = await ws.patch({
      files: [{ path: file, ops: [{ op: "append", lines: [`${tag} ${i}`] }] }],
    });
    lines.push(String((r as { entry?: string }).entry));
  } catch (error) {
    const e = error as Error & { code?: string };
    lines.push(`ERR ${e.code} ${e.message.slice(0, 300)}`);
  }
}
await new Promise<void>((resolve) =>
  process.stdout.write(lines.join("\n") + "\n", () => resolve())
);
