/**
 * Tool descriptions and the system-prompt snippets that teach a model the
 * edit format in use. Kept apart from the handlers so the wording can be
 * tuned without touching behaviour.
 *
 * @module
 */

/** Descriptions of every tool, by edit format where they differ. */
export const DESCRIPTIONS = {
  readHashline:
    "Read a file as LINE:HH|content lines; LINE:HH is the anchor edit_file takes, the prefix is not in the file. Long file: pass offset for the next window. Big file: outline first, then read the block you need.",
  readLean:
    "Read a file. Each line comes back as LINE|content; edit_file may name the line by LINE alone (12, 12..14), the prefix is not in the file. Long files come in windows: pass offset to go on. Big file: outline first, then read the block you need.",
  readPlain:
    "Read a file. Each line comes back as its number, a tab and the content; the number and tab are not in the file. Long files come in windows: pass offset to go on.",
  editHashline:
    `Edit by LINE:HH anchors from your latest read or edit result, all as read. patch text form:
@@ PATH
= A[..B] replace with the ~ lines after
- A[..B] delete
+ A / < A insert after / before A; bare + / < append / prepend
~text one new line
m A[..B] > C / < C move after / before C (c copies); > P:C into file P, > P appends
@@+ P create, @@- P delete, @@ P -> Q rename
A* (= 12:a3*) names the block opening on line A (function, class, section) for =, - and +; read all of it first.
A stale anchor refuses the whole edit and shows fresh ones.
patch may also be apply_patch or a unified diff.`,
  editStrReplace:
    "Edit a file by exact string replacement: old_string, copied from read_file without line numbers, must occur once (or set replace_all); it becomes new_string. No unique match: nothing is written.",
  write:
    "Create a file or replace a whole file. To change part of a file use edit_file.",
  list: "List files (.gitignored left out), at most 1000.",
  searchHashline:
    "Find lines matching a regex: a path, then its LINE:HH|content lines (at most 200), which count as read for edit_file.",
  searchPlain:
    "Find lines matching a regex: a path, then its numbered lines (at most 200).",
  sourcePut: "Store a source text; returns its ref and handle.",
  sourceRead:
    "Read a revision: characters (query finds text), or with anchors LINE:HH|content lines for source_patch.",
  sourceEdit:
    "New revision by exact string replacements, all or nothing; each old_string must occur once unless replace_all.",
  sourcePatch:
    "New revision by a patch (as edit_file) on source_read anchors, which stay valid.",
  sourceExport:
    "Write a revision to a new workspace file, never over an existing one.",
} as const;

/** The snippet for the hashline format. */
export const PROMPT_HASHLINE =
  `Files are edited by anchor. read_file shows each line as LINE:HH|content; "LINE:HH" (e.g. 12:a3) is the line's anchor and the prefix is not part of the file.
- Read a file before editing it; create new files with write_file.
- edit_file names lines only by anchors from your latest read or edit result, all as the file was read; never shift line numbers yourself, never put a LINE:HH| prefix in new lines. Example: {"path":"a.ts","ops":[{"op":"replace","start":"12:a3","end":"14:0e","lines":["const x = 1;"]}]}
- A stale anchor refuses the whole edit and shows the current lines with fresh anchors: resend with those. An edit result shows fresh anchors, so edits chain without reading again.
- Big file: read_file with outline: true, read the one block you need (offset, limit), then edit it by its block anchor LINE:HH* (e.g. "= 12:a3*" replaces the function opening on line 12).`;

/** The snippet for the str_replace format. */
export const PROMPT_STR_REPLACE =
  `Files are edited by exact string replacement. read_file shows each line as its number, a tab and the content; the number and tab are not part of the file.
- edit_file replaces old_string with new_string; old_string must match exactly (whitespace included) and occur once, so include surrounding lines, or set replace_all.
- Zero or several matches refuse the edit and nothing is written: read again and resend. Create new files with write_file.`;

/** The snippet added when the revision store tools are present. */
export const PROMPT_STORE =
  `A revision store keeps sources: source_put returns a ref and a handle (p_…); source_edit and source_patch make new revisions, never changing old ones; source_export writes one to a new file.`;
