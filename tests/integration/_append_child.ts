/**
 * Child process of the PID-namespace test: appends COUNT lines unique to
 * TAG to FILE, one patch each, and prints one JSON line per attempt:
 * `{ "ok": true, "line" }` once the patch resolved (acknowledged), or
 * `{ "ok": false, "code", "message" }`.
 *
 * Usage: _append_child.ts ROOT STATE TAG COUNT FILE
 */
import process from "node:process";
import { openWorkspace } from "../../src/workspace/mod.ts";

const [root, state, tag, count, file] = process.argv.slice(2);
const ws = openWorkspace(root, { stateDir: state, session: tag });

function out(value: unknown): Promise<void> {
  return new Promise((resolve) =>
    process.stdout.write(JSON.stringify(value) + "\n", () => resolve())
  );
}

await ws.read(file, { limit: 1 });
for (let i = 0; i < Number(count); i++) {
  const line = `${tag} append ${i}`;
  try {
    await ws.patch({
      files: [{ path: file, ops: [{ op: "append", lines: [line] }] }],
    });
    await out({ ok: true, line });
  } catch (error) {
    const e = error as Error & { code?: string };
    await out({
      ok: false,
      code: e.code,
      message: String(e.stack ?? e.message).slice(0, 600),
    });
  }
}
