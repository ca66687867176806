import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openWorkspace } from "./src/workspace/mod.ts";
const LINES = 300;
const body = Array.from({ length: LINES }, (_, i) => i === 149 ? `const target = "s";` : `const line${i} = ${i};`).join("\n") + "\n";
const N = Number(Deno.args[0] ?? 300);
for (const history of [false, true, false, true]) {
  const dir = await mkdtemp(join(tmpdir(), "inproc-"));
  await writeFile(join(dir, "a.ts"), body);
  const ws = openWorkspace(dir, { stateDir: join(dir, ".state"), history, session: "s" });
  const r: number[] = [], p: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const v = await ws.read("a.ts");
    const t1 = performance.now();
    const row = v.text.split("\n").find((l) => l.startsWith("150:"))!;
    const out = await ws.patch({ files: [{ path: "a.ts", ops: [{ op: "replace", start: row.slice(0, row.indexOf("|")), lines: [`const target = "v${i}";`] }] }] }).catch((e) => e);
    const t2 = performance.now(); if (out instanceof Error && i < 2) console.log(out.message);
    if (i >= 20) { r.push(t1 - t0); p.push(t2 - t1); }
  }
  const med = (x: number[]) => x.sort((a, b) => a - b)[x.length >> 1].toFixed(3);
  console.log(`history ${history}: read ${med(r)} ms, patch ${med(p)} ms`);
  await rm(dir, { recursive: true });
}
