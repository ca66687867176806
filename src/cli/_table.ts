/**
 * The one command table of the `hashline` command line. The argument parser
 * takes each command's flags from here and the help text is generated from
 * here, so a flag cannot be accepted without being documented, or the
 * reverse. Importing this module loads nothing else.
 *
 * @module
 */

/** One flag: its value type, the placeholder shown in usage, and its help line. */
export interface FlagSpec {
  /** `string` flags take a value (`--limit 20` or `--limit=20`); `boolean` flags take none. */
  type: "string" | "boolean";
  /** Placeholder of the value in usage lines (`N`, `DIR`, …); string flags only. */
  value?: string;
  /** One-letter alias (`-h`). */
  short?: string;
  /** What the flag does, in one line. */
  help: string;
  /** Must be given (shown without brackets in usage). */
  required?: boolean;
  /** May be given more than once; its value is then the list of every value given. */
  multiple?: boolean;
}

/** One positional argument. */
export interface ArgSpec {
  /** Placeholder shown in usage (`PATH`, `FILE|-`). */
  name: string;
  /** May be left out. */
  optional?: boolean;
  /** What it is, in one line. */
  help: string;
}

/** Which module runs a command: each family is loaded only when one of its commands runs. */
export type CommandFamily = "files" | "store" | "serve" | "history";

/** One command of the table. */
export interface CommandSpec {
  /** The command words: `read`, `store put`. */
  name: string;
  /** The module that runs it. */
  family: CommandFamily;
  /** One line for the command list. */
  summary: string;
  /** Positional arguments, in order. */
  args: ArgSpec[];
  /** Flags of this command besides the common ones. */
  flags: Record<string, FlagSpec>;
  /** More about the command, shown by `hashline COMMAND --help`. */
  details?: string;
}

/** Flags every command takes. */
export const COMMON_FLAGS: Record<string, FlagSpec> = {
  root: {
    type: "string",
    value: "DIR",
    help:
      "workspace folder that every path must stay inside (default: the working folder); relative paths are taken from the working folder when it lies inside the root, else from the root",
  },
  session: {
    type: "string",
    value: "NAME",
    help:
      'whose reads count (default "default"; mcp: its own session per connection); kept in the state folder, so separate calls form one session',
  },
  state: {
    type: "string",
    value: "DIR",
    help:
      "state folder (store, sessions, journal, history); default .hashline/ under the root, or HASHLINE_STORE",
  },
  deny: {
    type: "string",
    value: "GLOB",
    multiple: true,
    help:
      "a path glob (from the root) that no read, edit or history view may touch, as the workspace option deny; repeat the flag for more",
  },
  check: {
    type: "string",
    value: "MODE",
    help:
      'syntax check after each edit: "warn" (default) reports errors an edit introduced, "refuse" refuses such an edit (exit 1), "off"',
  },
  json: {
    type: "boolean",
    help:
      "print one JSON document on stdout: { ok: true, ... } or { ok: false, error: { code, message } }",
  },
  help: { type: "boolean", short: "h", help: "show help (also per command)" },
  version: { type: "boolean", help: "print the version" },
};

/** Environment variables the command line reads. */
export const ENVIRONMENT: { name: string; help: string }[] = [
  {
    name: "HASHLINE_STORE",
    help:
      "state folder (store, sessions, journal, history) when --state is not given; default .hashline/ under the root",
  },
  {
    name: "HASHLINE_TOKEN",
    help:
      "bearer token for serve when --token is not given (keeps it out of the process list)",
  },
  {
    name: "HASHLINE_ENGINE",
    help:
      'line hashing engine: "ts" forces the TypeScript twin instead of Wasm',
  },
  {
    name: "INIT_CWD",
    help:
      "the caller's folder, set by deno task and npm run; taken as the working folder when the task moved to the project folder",
  },
];

/** Exit codes, as the help text states them. */
export const EXIT_CODES =
  "0 done, 1 refused (stale, not read, conflict, not found), 2 bad usage";

const rebaseDefault: FlagSpec = {
  type: "boolean",
  help:
    "edit_file applies an op whose read lines only moved where they now stand, unless a call says rebase: false",
};

const leanDefault: FlagSpec = {
  type: "boolean",
  help:
    "read_file shows lines as LINE|content and edit_file takes line numbers, unless a call says anchors: hash",
};

const toolSets: FlagSpec = {
  type: "string",
  value: "SETS",
  help:
    'tool sets offered over MCP, comma-separated: "files", "store", "history" (default files,store)',
};

const editFormat: FlagSpec = {
  type: "string",
  value: "F",
  help:
    'edit tool offered to models: "hashline" (anchored patches, default) or "str_replace"',
};

import { HISTORY_COMMANDS } from "./_history_table.ts";
import { LINE_WINDOW, STORE_COMMANDS } from "./_store_table.ts";

/** Every command, in the order the help lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: "read",
    family: "files",
    summary: "show a file's lines as LINE:HH|content",
    args: [{ name: "PATH", help: "the file to read" }],
    flags: {
      ...LINE_WINDOW,
      outline: {
        type: "boolean",
        help:
          "show only the first line of each declaration and class member (each Markdown heading); each hidden run becomes one …FIRST–LAST line",
      },
      lean: {
        type: "boolean",
        help:
          "show LINE|content; patches may then name these lines by number alone (12, 12..14)",
      },
    },
    details:
      "The first line is @@ PATH, the file as a patch run from here names it; the view follows on stdout and a footer such as (lines 1–200 of 5000; next: --offset 201) to stderr. The lines shown count as read for the session, so they can be patched next.",
  },
  {
    name: "patch",
    family: "files",
    summary: "apply an anchored patch (JSON or text form), all or nothing",
    args: [{
      name: "FILE|-",
      optional: true,
      help: "the patch file; - or nothing reads standard input",
    }],
    flags: {
      "dry-run": {
        type: "boolean",
        help: "validate and show the diff without writing anything",
      },
      rebase: {
        type: "boolean",
        help:
          "apply an op whose read lines only moved (lines inserted or removed above) where they now stand",
      },
    },
    details:
      "Paths inside the patch (@@ PATH) are taken as read takes PATH: from the working folder when it lies inside the root, else from the root. A patch with a stale anchor is refused whole (exit 1) and the refusal shows fresh anchors to resend with.",
  },
  {
    name: "write",
    family: "files",
    summary: "create a file, or replace one the session has read in full",
    args: [
      { name: "PATH", help: "the file to create or replace" },
      {
        name: "FILE|-",
        help: "where the new content comes from; - reads standard input",
      },
    ],
    flags: {
      "allow-empty": {
        type: "boolean",
        help: "let an empty standard input empty a file that has content",
      },
    },
    details:
      "Standard input is read only when - is given. An empty standard input over a file that has content is refused (a forgotten or closed input) unless --allow-empty is given.",
  },
  {
    name: "ls",
    family: "files",
    summary: "list files under the root (.gitignored and denied ones left out)",
    args: [{
      name: "GLOB",
      optional: true,
      help:
        "which paths, from the root (default every file); a glob with no / matches names at any depth",
    }],
    flags: {},
    details:
      "Prints at most 1,000 paths, one a line, in the form a patch takes, and a note naming how many more matched.",
  },
  {
    name: "grep",
    family: "files",
    summary: "find lines matching a regular expression, anchored",
    args: [
      { name: "PATTERN", help: "a regular expression (JavaScript syntax)" },
      {
        name: "GLOB",
        optional: true,
        help: "which files, as ls takes it (default every file)",
      },
    ],
    flags: {},
    details:
      "Prints each file's path, then its matching lines as LINE:HH|content (LINE|content where the session last read that file lean), at most 200 lines. The lines shown count as read for the session, so they can be patched next.",
  },
  ...STORE_COMMANDS,
  {
    name: "serve",
    family: "serve",
    summary: "HTTP + MCP server (default 127.0.0.1:8787) until SIGINT/SIGTERM",
    args: [],
    flags: {
      host: {
        type: "string",
        value: "H",
        help: "address to bind (default 127.0.0.1; any other needs a token)",
      },
      port: {
        type: "string",
        value: "P",
        help: "port (default 8787; 0 picks a free one)",
      },
      token: {
        type: "string",
        value: "T",
        help:
          "bearer token every route but /health then requires (or HASHLINE_TOKEN)",
      },
      "allow-origin": {
        type: "string",
        value: "ORIGINS",
        help:
          "comma-separated origins (https://app.example) whose pages may call the server; others get 403",
      },
      "edit-format": editFormat,
      rebase: rebaseDefault,
      lean: leanDefault,
      tools: toolSets,
    },
  },
  {
    name: "mcp",
    family: "serve",
    summary: "MCP server on stdio until the client closes it",
    args: [],
    flags: {
      "edit-format": editFormat,
      rebase: rebaseDefault,
      lean: leanDefault,
      tools: toolSets,
    },
    details:
      "Each connection is its own session, kept in memory, so two agents never use each other's reads; --session NAME shares the reads of that session with CLI calls and other connections.",
  },
  ...HISTORY_COMMANDS,
];

/**
 * Finds a command by its words.
 *
 * @param words The positionals, command words first.
 * @returns The command and how many words named it, or undefined.
 */
export function findCommand(
  words: readonly string[],
): { spec: CommandSpec; used: number } | undefined {
  const two = words.length >= 2 ? `${words[0]} ${words[1]}` : undefined;
  for (const spec of COMMANDS) {
    if (two !== undefined && spec.name === two) return { spec, used: 2 };
  }
  for (const spec of COMMANDS) {
    if (words.length >= 1 && spec.name === words[0]) return { spec, used: 1 };
  }
  return undefined;
}

/** The first words of commands that take a second word (`store`). */
export function groups(): string[] {
  const out = new Set<string>();
  for (const c of COMMANDS) {
    const space = c.name.indexOf(" ");
    if (space !== -1) out.add(c.name.slice(0, space));
  }
  return [...out];
}
