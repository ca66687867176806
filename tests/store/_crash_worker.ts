/**
 * Child process for the crash test: writes revisions into a file store and
 * kills itself with SIGKILL at one step of one publish.
 *
 * Usage: _crash_worker.ts DIR STEP#N COUNT
 *   STEP is `object:half`, `object:temp`, `object:linked`, `handle:half`,
 *   `handle:temp`, `handle:linked` or `none`; N says at which occurrence.
 * Prints one JSON line `{ i, ref, handle }` per revision once it is stored.
 */
import process from "node:process";
import { writeSync } from "node:fs";
import { StoreCore } from "../../src/store/_core.ts";
import { FileBackend } from "../../src/store/_file_backend.ts";
import { crashSource } from "./_crash_source.ts";

const [dir, crashAt, count] = process.argv.slice(2);
const [step, nth] = crashAt.split("#");
let seen = 0;
const store = new StoreCore(
  new FileBackend(dir, {
    onStep: (s) => {
      if (s === step && ++seen === Number(nth)) {
        process.kill(process.pid, "SIGKILL");
      }
    },
  }),
);

let last: { ref: string; handle: string } | undefined;
for (let i = 0; i < Number(count); i++) {
  const id = i % 3 === 2 && last
    ? await store.edit(last.handle, [{
      oldString: `revision ${i - 1}\n`,
      newString: `revision ${i}\n`,
    }])
    : await store.put(crashSource(i));
  last = { ref: id.ref, handle: id.handle };
  // Written synchronously, so a line is out before the next step can kill the process.
  writeSync(1, JSON.stringify({ i, ref: id.ref, handle: id.handle }) + "\n");
}
await store.close();
