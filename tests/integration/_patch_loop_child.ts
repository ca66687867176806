/**
 * Child process of the many-writers test: opens its own workspace and, COUNT
 * times, reads the counter on line 1 of FILE and sends one patch that bumps
 * the counter and appends a line unique to this process and attempt. Prints
 * one JSON line per attempt (the new counter line never shares its short
 * hash with the old one: that case has its own test): `{ "ok": true, "line": … }` once the patch
 * resolved (acknowledged), or `{ "ok": false, "name", "code", "message" }`.
 *
 * Usage: _patch_loop_child.ts ROOT STATE SESSION TAG COUNT FILE
 */
import process from "node:process";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { unlike } from "./_util.ts";

const [root, state, session, tag, count, file] = process.argv.slice(2);
const ws = openWorkspace(root, { stateDir: state, session });

function out(value: unknown): Promise<void> {
  return new Promise((resolve) =>
    process.stdout.write(JSON.stringify(value) + "\n", () => resolve())
  );
}

for (let i = 0; i < Number(count); i++) {
  const line = `${tag} attempt ${i}`;
  try {
    const view = await ws.read(file, { offset: 1, limit: 1 });
    const head = view.text.slice(0, view.text.indexOf("|"));
    const now = view.text.slice(view.text.indexOf("|") + 1);
    const n = Number(/^count (\d+)\.*$/.exec(now)![1]);
    await ws.patch({
      files: [{
        path: file,
        ops: [
          {
            op: "replace",
            start: head,
            lines: [unlike(`count ${n + 1}`, now)],
          },
          { op: "append", lines: [line] },
        ],
      }],
    });
    await out({ ok: true, line });
  } catch (error) {
    const e = error as Error & { code?: string };
    await out({
      ok: false,
      name: e.constructor?.name,
      code: e.code,
      message: String(e.stack ?? e.message).slice(0, 600),
    });
  }
}
