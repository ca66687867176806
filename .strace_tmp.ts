import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openWorkspace } from "./src/workspace/mod.ts";
const body = Array.from({ length: 300 }, (_, i) => i === 149 ? `const target = "s";` : `const line${i} = ${i};`).join("\n") + "\n";
const history = Deno.args[0] === "on";
const dir = await mkdtemp(join(tmpdir(), "st-"));
await writeFile(join(dir, "a.ts"), body);
const ws = openWorkspace(dir, { stateDir: join(dir, ".state"), history, session: "s" });
for (let i = 0; i < 30; i++) {
  if (i === 20) console.error("MARK-START");
  const v = await ws.read("a.ts");
  const row = v.text.split("\n").find((l) => l.startsWith("150:"))!;
  if (i >= 20) console.error("MARK-PATCH");
  await ws.patch({ files: [{ path: "a.ts", ops: [{ op: "replace", start: row.slice(0, row.indexOf("|")), lines: [`const target = "v${i}";`] }] }] }).catch(() => {});
  if (i >= 20) console.error("MARK-END");
}
