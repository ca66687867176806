/**
 * Help text generated from the command table: the whole list
 * (`hashline --help`), one group (`hashline store --help`) or one command
 * (`hashline read --help`).
 *
 * @module
 */
import { usageLine } from "./_args.ts";
import {
  COMMANDS,
  type CommandSpec,
  COMMON_FLAGS,
  ENVIRONMENT,
  EXIT_CODES,
  type FlagSpec,
} from "./_table.ts";

function flagLabel(name: string, f: FlagSpec): string {
  const long = f.type === "string"
    ? `--${name} ${f.value ?? "VALUE"}`
    : `--${name}`;
  return f.short ? `-${f.short}, ${long}` : long;
}

function columns(rows: [string, string][], indent = "  "): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `${indent}${left.padEnd(width)}  ${right}`)
    .join("\n");
}

function footer(): string {
  return [
    "Common flags (before or after the command):",
    columns(
      Object.entries(COMMON_FLAGS).map(([n, f]) => [flagLabel(n, f), f.help]),
    ),
    "",
    "Environment:",
    columns(ENVIRONMENT.map((e) => [e.name, e.help])),
    "",
    `Exit codes: ${EXIT_CODES}.`,
  ].join("\n");
}

function list(commands: readonly CommandSpec[]): string {
  return columns(commands.map((c) => [c.name, c.summary]));
}

/**
 * Help for the whole command line, a group of commands, or one command.
 *
 * @param topic A command, a group's first word (`store`), or undefined for all.
 * @returns The help text.
 */
export function helpText(topic: CommandSpec | string | undefined): string {
  if (topic === undefined) {
    return [
      "hashline — anchored reads and all-or-nothing patches",
      "",
      "Usage: hashline <command> [arguments] [flags]",
      "",
      "Commands:",
      list(COMMANDS),
      "",
      "Run hashline <command> --help for a command's arguments and flags.",
      "",
      footer(),
    ].join("\n");
  }
  if (typeof topic === "string") {
    const members = COMMANDS.filter((c) => c.name.startsWith(topic + " "));
    return [
      `Usage: hashline ${topic} <command> [arguments] [flags]`,
      "",
      "Commands:",
      columns(
        members.map((c) => [usageLine(c).slice("hashline ".length), c.summary]),
      ),
      "",
      `Run hashline ${topic} <command> --help for details.`,
      "",
      footer(),
    ].join("\n");
  }
  const summary = topic.summary[0].toUpperCase() + topic.summary.slice(1);
  const parts = [`Usage: ${usageLine(topic)}`, "", `${summary}.`];
  if (topic.details) parts.push("", topic.details);
  if (topic.args.length > 0) {
    parts.push(
      "",
      "Arguments:",
      columns(topic.args.map((a) => [a.name, a.help])),
    );
  }
  const flags = Object.entries(topic.flags);
  if (flags.length > 0) {
    parts.push(
      "",
      "Flags:",
      columns(flags.map(([n, f]) => [flagLabel(n, f), f.help])),
    );
  }
  parts.push("", footer());
  return parts.join("\n");
}
