/**
 * Mounting the tool registry in an agent framework: hand the tool
 * definitions and the system-prompt snippet to the model API, then route
 * each tool call the model makes to `registry.call`. A scripted "model"
 * stands in for a real one here; the calls are what a model would send.
 *
 *   node_modules/.bin/deno run -A examples/agent_tools.ts
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createToolRegistry, type ToolResult } from "../src/tools/mod.ts";
import { createMemoryStore } from "../src/store/mod.ts";
import { openWorkspace } from "../src/workspace/mod.ts";

const dir = await mkdtemp(join(tmpdir(), "hashline-agent-"));
await writeFile(
  join(dir, "cart.js"),
  "function total(items) {\n  return items.length;\n}\n",
);
try {
  const workspace = openWorkspace(dir, {
    stateDir: join(dir, ".hashline"),
    persistSessions: false,
  });
  const registry = createToolRegistry({
    workspace,
    store: createMemoryStore(),
  });

  // What a model API wants: name, description, JSON Schema (here in the
  // shape of OpenAI-style function tools; Anthropic's uses `input_schema`).
  const apiTools = registry.tools.map((t) => ({
    type: "function",
    function: {
      name: t.name,
      description: t.description,
      parameters: t.inputSchema,
    },
  }));
  console.log("tools:", apiTools.map((t) => t.function.name).join(", "));
  console.log(
    "system prompt starts:",
    JSON.stringify(registry.systemPrompt.split("\n")[0]),
  );

  // The agent loop: each tool call the model makes goes to the registry;
  // refusals come back as text the model can act on, never as exceptions.
  const run = async (name: string, input: unknown): Promise<ToolResult> => {
    const result = await registry.call(name, input, { session: "agent-1" });
    console.log(`\n> ${name} ${JSON.stringify(input)}`);
    console.log(
      result.ok
        ? result.text
        : `[${result.error.code}] ${result.error.message}`,
    );
    return result;
  };

  const read = await run("read_file", { path: "cart.js" });
  const anchor = read.ok ? read.text.split("\n")[1].split("|")[0] : "";
  await run("edit_file", {
    path: "cart.js",
    ops: [{
      op: "replace",
      start: anchor,
      lines: ["  return items.reduce((sum, i) => sum + i.price, 0);"],
    }],
  });
  // A second edit with the old anchor is refused with fresh anchors to resend.
  await run("edit_file", { patch: `@@ cart.js\n- ${anchor}` });
  console.log(
    "\non disk:",
    JSON.stringify(await readFile(join(dir, "cart.js"), "utf8")),
  );

  // The same registry in str_replace mode, for models trained on that format.
  const classic = createToolRegistry({ workspace, editFormat: "str_replace" });
  const edit = await classic.call("edit_file", {
    path: "cart.js",
    old_string: "function total(items)",
    new_string: "export function total(items)",
  });
  console.log(
    "\nstr_replace:",
    edit.ok ? edit.text.split("\n")[0] : edit.error.message,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
