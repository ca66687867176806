import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openWorkspace } from "../src/workspace/mod.ts";
const dir = await mkdtemp(join(tmpdir(), "probe-"));
const body =
  Array.from({ length: 300 }, (_, i) => `const line${i} = ${i};`).join("\n") +
  "\n";
await writeFile(join(dir, "a.ts"), body);
const ws = openWorkspace(dir, { stateDir: join(dir, ".st") });
const ms: number[] = [];
const rs: number[] = [];
for (let i = 0; i < 60; i++) {
  const t0 = performance.now();
  const v = await ws.read("a.ts");
  const t1 = performance.now();
  const row = v.text.split("\n")[149];
  await ws.patch({
    files: [{
      path: "a.ts",
      ops: [{
        op: "replace",
        start: row.slice(0, row.indexOf("|")),
        lines: [`x${i}`],
      }],
    }],
  });
  ms.push(performance.now() - t1);
  rs.push(t1 - t0);
}
ms.sort((a, b) => a - b);
rs.sort((a, b) => a - b);
console.log(
  "read median",
  rs[30].toFixed(2),
  "patch median",
  ms[30].toFixed(2),
);
const { createToolRegistry } = await import("../src/tools/mod.ts");
const reg = createToolRegistry({ workspace: ws } as never);
const tools = new Map(reg.tools.map((t: { name: string }) => [t.name, t]));
const rt: number[] = [];
for (let i = 0; i < 60; i++) {
  const t0 = performance.now();
  const r = await (tools.get("read_file") as any).handler({ path: "a.ts" }, {
    session: "m",
  });
  const row = (r.text as string).split("\n")[149];
  await (tools.get("edit_file") as any).handler({
    path: "a.ts",
    ops: [{
      op: "replace",
      start: row.slice(0, row.indexOf("|")),
      lines: [`y${i}`],
    }],
  }, { session: "m" });
  rt.push(performance.now() - t0);
}
rt.sort((a, b) => a - b);
console.log("registry round trip median", rt[30].toFixed(2));
