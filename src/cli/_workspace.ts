/**
 * The workspace a command works in, opened from its context: the root, the
 * session, the state folder, `--deny` and `--check` (docs/cli.md). Every
 * command that reads or writes the root's files opens it here, so a flag
 * means the same to each.
 *
 * @module
 */
import type { CheckMode } from "../check/mod.ts";
import type { Door } from "../history/mod.ts";
import { openWorkspace, type Workspace } from "../workspace/mod.ts";
import type { CliContext } from "./_context.ts";

/**
 * Opens the workspace of a command.
 *
 * @param ctx The command's context.
 * @param door The door its history entries name (default `"cli"`).
 * @param persistSessions Whether sessions' reads are kept on disk (the
 *   workspace's default when left out).
 * @returns The workspace.
 * @throws {NotFoundError} When the root does not exist or is not a folder.
 */
export function commandWorkspace(
  ctx: CliContext,
  door: Door = "cli",
  persistSessions?: boolean,
): Workspace {
  return openWorkspace(ctx.root, {
    session: ctx.session,
    stateDir: ctx.stateDir,
    deny: ctx.deny,
    check: ctx.values.check as CheckMode | undefined,
    door,
    persistSessions,
  });
}
