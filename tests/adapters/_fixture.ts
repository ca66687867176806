/** A temp workspace (root and state folder apart) for the adapter tests. */
import {
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rm,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createToolRegistry,
  openWorkspace,
  type ToolContext,
  type ToolRegistry,
} from "../../mod.ts";

type EditFormat = NonNullable<ToolContext["editFormat"]>;

/** A workspace holding one file, and a registry over it. */
export interface Fixture {
  root: string;
  registry: ToolRegistry;
  /** The file's bytes on disk, as text. */
  read(path: string): Promise<string>;
  /** Writes a file behind the registry's back (another editor). */
  write(path: string, content: string): Promise<void>;
  cleanup(): Promise<void>;
}

/** Makes a workspace with `files` and a registry in the given edit format. */
export async function makeFixture(
  files: Record<string, string>,
  editFormat: EditFormat = "hashline",
): Promise<Fixture> {
  const base = await realpath(await mkdtemp(join(tmpdir(), "hashline-adapt-")));
  const root = join(base, "root");
  await mkdir(root);
  for (const [path, content] of Object.entries(files)) {
    await writeFile(join(root, path), content);
  }
  const workspace = openWorkspace(root, { stateDir: join(base, "state") });
  return {
    root,
    registry: createToolRegistry({ workspace, editFormat }),
    read: (path) => readFile(join(root, path), "utf8"),
    write: (path, content) => writeFile(join(root, path), content),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/** The `LINE:HH` anchor of the row showing `content` in a read or a refusal. */
export function anchorOf(text: string, content: string): string {
  const row = text.split("\n").find((l) => l.endsWith(`|${content}`));
  if (!row) {
    throw new Error(`no row shows ${JSON.stringify(content)} in:\n${text}`);
  }
  return row.trim().replace(/^[>\s-]*/, "").split("|")[0];
}
