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
    "Read a text file of the workspace. Every line comes back as `LINE:HH|content`: LINE is the 1-based line number, HH a 2-hex fingerprint of the line, and `LINE:HH` is the line's anchor that edit_file uses. The `LINE:HH|` prefix is not part of the file. Long files come in windows (default 2000 lines): pass `offset` to continue where the last read said. A file must be read in this session before edit_file may change it.",
  readPlain:
    "Read a text file of the workspace. Every line comes back as its line number, a tab, and the line's content; the number and tab are not part of the file. Long files come in windows (default 2000 lines): pass `offset` to continue where the last read said.",
  editHashline:
    "Edit files by anchor. Name every line by the `LINE:HH` anchor from your latest read_file (or from a previous edit result), never by retyping old content. Send `{ path, ops }` for one file, `{ files: [{ path, ops }] }` for several, or `{ patch }` in text form. Ops: replace {start, end?, lines}, delete {start, end?}, insert_after {anchor, lines}, insert_before {anchor, lines}, append {lines}, prepend {lines}; `lines` are the exact new lines without any `LINE:HH|` prefix, `[]` for none. All ops address the file as you read it. If any anchor is stale (the file changed) the whole edit is refused, nothing is written, and the refusal shows the current lines with fresh anchors: resend with those. The result shows fresh anchors around each change, so edits can chain. Set dryRun to preview the diff. Use write_file to create a file.",
  editStrReplace:
    "Edit a file by exact string replacement: `old_string` must appear in the file exactly once (or set replace_all to change every occurrence) and is replaced by `new_string`. Copy old_string from read_file output without the line-number prefix, with enough surrounding lines to be unique. Zero or several matches refuse the edit and nothing is written. Use write_file to create a file.",
  write:
    "Create a file, or replace a whole file, with `content`. Prefer edit_file for changes to an existing file: it is cheaper and checks that the file did not change under you.",
  sourcePut:
    "Store a source text in the revision store and get back its `ref` (sha256:…) and a short `handle` (p_…). The same text always gets the same ref. Use the handle with source_read, source_edit, source_patch and source_export.",
  sourceRead:
    "Read a stored revision in bounded windows of characters (default 8000, at most 16000). Pass `query` to get the text around its first match, or `offset` to continue where the previous read's nextOffset said.",
  sourceEdit:
    "Make a new revision of a stored source by exact string replacements, applied in order, all or nothing: each old_string must occur exactly once unless replace_all is true. The base revision never changes; the result names the new ref and handle and shows the diff.",
  sourcePatch:
    "Make a new revision of a stored source with a hashline patch: `ops` (or a text `patch`) naming lines by `LINE:HH` anchors of that revision. A revision never changes, so its anchors stay valid. The result names the new ref and handle and shows the diff.",
  sourceExport:
    "Write a stored revision to a new file in the workspace. An existing file is never overwritten: choose a new path, or edit the existing file with edit_file.",
} as const;

/** The snippet for the hashline format. */
export const PROMPT_HASHLINE = `Files are read and edited through anchors.
- read_file shows each line as LINE:HH|content. "LINE:HH" (e.g. 12:a3) is that line's anchor; the "LINE:HH|" prefix is not part of the file.
- Read a file before you edit it. Create new files with write_file.
- edit_file names lines only by anchor. Example: {"path":"src/app.ts","ops":[{"op":"replace","start":"12:a3","end":"14:0e","lines":["const x = 1;"]},{"op":"insert_after","anchor":"30:fb","lines":["// note"]}]}.
  Ops: replace (start, end?, lines; lines [] deletes), delete (start, end?), insert_after / insert_before (anchor, lines), append / prepend (lines).
  Text form, same meaning: {"patch":"@@ src/app.ts\\n= 12:a3..14:0e\\n~const x = 1;\\n+ 30:fb\\n~// note"} — "@@ PATH" starts a file, "=" replace, "-" delete, "+ A" insert after, "< A" insert before, bare "+" append, bare "<" prepend, each "~" line is one new line.
- Every op addresses the file as you last read it; never shift line numbers yourself.
- Never put a "LINE:HH|" prefix inside new lines.
- If an anchor is stale, the whole edit is refused and nothing is written; the refusal shows the current lines with fresh anchors — resend using them. An edit result shows fresh anchors around the change, so you can chain edits without reading again.`;

/** The snippet for the str_replace format. */
export const PROMPT_STR_REPLACE =
  `Files are read and edited by exact string replacement.
- read_file shows each line as its number, a tab, and the content; the number and tab are not part of the file.
- edit_file replaces old_string with new_string. old_string must match the file exactly (whitespace included) and occur exactly once; include surrounding lines to make it unique, or set replace_all to change every occurrence.
- If old_string matches zero or several times, the edit is refused and nothing is written; read the file again and resend.
- Create new files with write_file.`;

/** The snippet added when the revision store tools are present. */
export const PROMPT_STORE =
  `Sources can also be kept in a revision store: source_put stores a text and returns a ref (sha256:…) and a short handle (p_…). source_read reads a window (query or offset); source_edit and source_patch make a new revision and never change the old one; source_export writes a revision to a new workspace file.`;
