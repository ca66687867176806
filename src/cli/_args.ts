/**
 * Command-line parsing with `node:util` `parseArgs`, driven by the command
 * table. Flags may come before or after the command words; a flag that the
 * command does not take is named as unknown, a string flag without its value
 * is named as missing one.
 *
 * @module
 */
import { parseArgs } from "node:util";
import {
  COMMANDS,
  type CommandSpec,
  COMMON_FLAGS,
  findCommand,
  type FlagSpec,
  groups,
} from "./_table.ts";

/** Flag values by name; string flags hold their text, boolean flags `true`. */
export type FlagValues = Record<
  string,
  string | boolean | string[] | undefined
>;

/** What the command line asked for. */
export type Parsed =
  | { kind: "version"; json: boolean }
  | { kind: "help"; json: boolean; topic: CommandSpec | string | undefined }
  | {
    kind: "run";
    json: boolean;
    spec: CommandSpec;
    /** Positionals after the command words. */
    args: string[];
    values: FlagValues;
  };

/** Bad usage: an unknown command or flag, a missing value or argument (exit code 2). */
export class UsageError extends TypeError {
  /**
   * @param message What was wrong and where to read the usage.
   */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

type NodeOptions = Record<
  string,
  { type: "string" | "boolean"; short?: string; multiple?: boolean }
>;

function nodeOptions(flags: Record<string, FlagSpec>): NodeOptions {
  const out: NodeOptions = {};
  for (const [name, f] of Object.entries(flags)) {
    out[name] = { type: f.type };
    if (f.short) out[name].short = f.short;
    if (f.multiple) out[name].multiple = true;
  }
  return out;
}

const ALL_FLAGS: Record<string, FlagSpec> = Object.assign(
  {},
  COMMON_FLAGS,
  ...COMMANDS.map((c) => c.flags),
);

/**
 * The usage line of a command: `hashline read PATH [--offset N] [--limit N]`.
 *
 * @param spec The command.
 * @returns The usage line.
 */
export function usageLine(spec: CommandSpec): string {
  const parts = [`hashline ${spec.name}`];
  for (const a of spec.args) parts.push(a.optional ? `[${a.name}]` : a.name);
  for (const [name, f] of Object.entries(spec.flags)) {
    const flag = f.type === "string"
      ? `--${name} ${f.value ?? "VALUE"}`
      : `--${name}`;
    parts.push(f.required ? flag : `[${flag}]`);
  }
  return parts.join(" ");
}

// A value that looks like a flag is taken as a forgotten value, as parseArgs'
// strict mode does; `--old=-x` still passes one that starts with a dash.
function looksLikeFlag(value: string): boolean {
  return value.length > 1 && value.startsWith("-");
}

function isFlagName(value: string): boolean {
  const name = value.replace(/^--?/, "").replace(/=.*$/, "");
  return Object.hasOwn(ALL_FLAGS, name) ||
    Object.values(ALL_FLAGS).some((f) => f.short === name);
}

/**
 * Parses the arguments after the program name.
 *
 * @param argv The arguments.
 * @returns What to do: print the version, print help, or run a command.
 * @throws {UsageError} Unknown command or flag, a flag without its value, a
 *   value given to a flag that takes none, missing or extra arguments.
 */
export function parseCommandLine(argv: string[]): Parsed {
  // First pass: every flag any command knows, only to find the command words.
  const first = parseArgs({
    args: argv,
    options: nodeOptions(ALL_FLAGS),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const json = first.values.json === true;
  const help = first.values.help === true;
  const words = first.positionals;
  const found = findCommand(words);
  if (found === undefined) {
    if (words[0] === "help") {
      const topic = words.length > 1 ? findCommand(words.slice(1)) : undefined;
      if (
        words.length > 1 && topic === undefined && !groups().includes(words[1])
      ) {
        throw new UsageError(
          `unknown command "${words.slice(1).join(" ")}"; see hashline --help`,
        );
      }
      return { kind: "help", json, topic: topic?.spec ?? words[1] };
    }
    if (words.length === 0) {
      if (first.values.version === true) return { kind: "version", json };
      if (help) return { kind: "help", json, topic: undefined };
    }
    if (words.length > 0 && groups().includes(words[0])) {
      if (help && words.length === 1) {
        return { kind: "help", json, topic: words[0] };
      }
      const subs = COMMANDS.filter((c) => c.name.startsWith(words[0] + " "))
        .map((c) => c.name.slice(words[0].length + 1)).join(", ");
      throw new UsageError(
        words.length === 1
          ? `no ${words[0]} command given: use one of ${subs}; see hashline ${
            words[0]
          } --help`
          : `unknown command "${words[0]} ${
            words[1]
          }": use one of ${subs}; see hashline ${words[0]} --help`,
      );
    }
    for (const t of first.tokens) {
      if (t.kind === "option" && !Object.hasOwn(ALL_FLAGS, t.name)) {
        throw new UsageError(`unknown flag ${t.rawName}; see hashline --help`);
      }
    }
    throw new UsageError(
      words.length === 0
        ? "no command given; see hashline --help"
        : `unknown command "${words[0]}"; see hashline --help`,
    );
  }
  const { spec, used } = found;
  const see = `see hashline ${spec.name} --help`;
  const allowed: Record<string, FlagSpec> = { ...COMMON_FLAGS, ...spec.flags };
  const second = parseArgs({
    args: argv,
    options: nodeOptions(allowed),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  if (second.values.help === true) return { kind: "help", json, topic: spec };
  if (second.values.version === true) return { kind: "version", json };
  for (const t of second.tokens) {
    if (t.kind !== "option") continue;
    const f = Object.hasOwn(allowed, t.name) ? allowed[t.name] : undefined;
    if (f === undefined) {
      throw new UsageError(
        `unknown flag ${t.rawName} for ${spec.name}; ${see}`,
      );
    }
    if (f.type === "boolean" && t.inlineValue) {
      throw new UsageError(
        `flag --${t.name} of ${spec.name} takes no value, got "${t.value}"; ${see}`,
      );
    }
    if (
      f.type === "string" &&
      (t.value === undefined || (!t.inlineValue && looksLikeFlag(t.value)))
    ) {
      throw new UsageError(
        `flag --${t.name} of ${spec.name} needs a value (--${t.name} ${
          f.value ?? "VALUE"
        }${
          t.value === undefined || isFlagName(t.value)
            ? ""
            : `; to pass one that starts with -, write --${t.name}=${t.value}`
        }); ${see}`,
      );
    }
  }
  for (const [name, f] of Object.entries(spec.flags)) {
    if (f.required && second.values[name] === undefined) {
      throw new UsageError(
        `${spec.name} needs --${name} ${f.value ?? "VALUE"}; ${see}`,
      );
    }
  }
  const args = second.positionals.slice(used);
  const min = spec.args.filter((a) => !a.optional).length;
  const max = spec.args.length;
  if (args.length < min || args.length > max) {
    const wanted = spec.args.map((a) => a.optional ? `[${a.name}]` : a.name)
      .join(" ");
    const got = args.length === 0
      ? "none"
      : args.map((a) => JSON.stringify(a)).join(" ");
    throw new UsageError(
      `${spec.name} takes ${
        max === 0 ? "no arguments" : wanted
      }, got ${got}. Usage: ${usageLine(spec)}; ${see}`,
    );
  }
  return { kind: "run", json, spec, args, values: second.values };
}
