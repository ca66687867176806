/**
 * The review page's HTML (hono/html, server-rendered, no script): the list
 * of newest entries (filtered by session and path) and one entry with its
 * diffs and an `Undo` form. Every interpolated value is escaped by `html`,
 * and text that came from files or agents shows its control and
 * bidirectional formatting characters as escapes (`\x1b`, `<U+202E>`);
 * styles are inline, readable on a phone, dark when the system is.
 *
 * @module
 */
import { html, raw } from "hono/html";
import type { EntryDetail, EntryFile, HistoryEntry } from "../history/mod.ts";
import { visible, visibleLines } from "../_internal/visible.ts";

type Html = ReturnType<typeof html>;

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #fff; --muted: #57606a;
  --line: #d0d7de; --add: #e6ffec; --del: #ffebe9; --addfg: #116329; --delfg: #a40e26;
  --accent: #0969da; --card: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117;
  --muted: #8d96a0; --line: #30363d; --add: #12261e; --del: #25171c;
  --addfg: #7ee787; --delfg: #ffa198; --accent: #4493f8; --card: #161b22; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 60rem; padding: 1rem; font: 16px/1.45 system-ui,
  -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
h1 { font-size: 1.3rem; margin: 0 0 .25rem; }
h2 { font-size: 1.05rem; margin: 1.25rem 0 .4rem; overflow-wrap: anywhere; }
.muted { color: var(--muted); font-size: .9rem; overflow-wrap: anywhere; }
ol.entries { list-style: none; padding: 0; margin: 1rem 0; }
ol.entries > li { border: 1px solid var(--line); border-radius: 6px; padding: .6rem .75rem;
  margin-bottom: .5rem; background: var(--card); }
.id { font-weight: 600; font-family: ui-monospace, monospace; }
.files { margin: .25rem 0 0; padding: 0; list-style: none; font-family: ui-monospace,
  monospace; font-size: .9rem; overflow-wrap: anywhere; }
.add { color: var(--addfg); } .del { color: var(--delfg); }
pre.diff { margin: 0; padding: .5rem 0; border: 1px solid var(--line); border-radius: 6px;
  overflow-x: auto; font: .85rem/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre.diff span { display: block; padding: 0 .6rem; white-space: pre; }
pre.diff .a { background: var(--add); color: var(--addfg); }
pre.diff .d { background: var(--del); color: var(--delfg); }
pre.diff .h { color: var(--muted); }
.undo { margin: 1.5rem 0; padding: .75rem; border: 1px solid var(--line); border-radius: 6px; }
button { font: inherit; padding: .5rem 1.2rem; border-radius: 6px; border: 1px solid var(--line);
  background: var(--accent); color: #fff; cursor: pointer; min-height: 44px; }
.refused { color: var(--delfg); white-space: pre-wrap; overflow-wrap: anywhere; }
.ok { color: var(--addfg); }
.undone { color: var(--delfg); font-weight: 600; }
form.filter { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin: .75rem 0; }
form.filter label { display: flex; flex-direction: column; font-size: .85rem; color: var(--muted); }
form.filter input { font: inherit; padding: .35rem .5rem; border: 1px solid var(--line);
  border-radius: 6px; background: var(--bg); color: var(--fg); }
form.filter button { min-height: 2.3rem; padding: .3rem 1rem; }
`;

/** The page frame. */
export function layout(title: string, body: Html): Html {
  return html`
    <!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>${title}</title>
        <style>${raw(STYLE)}</style>
      </head>
      <body>
    ${body}
      </body>
    </html>
  `;
}

function when(time: string): string {
  return time.replace("T", " ").replace(/\.\d+Z$/, " UTC");
}

/** What a file item says beside its path: created, deleted or renamed. */
function fileTag(f: EntryFile): string {
  if (f.created) return " (created)";
  if (f.deleted) return " (deleted)";
  if (f.renamedFrom !== undefined) {
    return ` (renamed from ${visible(f.renamedFrom)})`;
  }
  return "";
}

function fileLine(f: EntryFile): Html {
  return html`<li>${visible(f.path)}${
    fileTag(f)
  } <span class="add">+${f.added}</span> <span class="del">−${f.removed}</span></li>`;
}

/** An entry's headline: every file it touched, each with its counts. */
export function headline(e: HistoryEntry): string {
  return e.files.map((f) =>
    `${visible(f.path)}${fileTag(f)} +${f.added} −${f.removed}`
  ).join(", ");
}

function undoneMark(by: string | undefined): Html | string {
  return by === undefined ? "" : html`
    · <span
      class="undone">undone by <a href="/history/${by}">${by}</a></span>
  `;
}

/** The list's filters, as the query gave them. */
export interface ListFilter {
  /** Only this session's entries. */
  session?: string;
  /** Only entries that changed this file. */
  path?: string;
}

/**
 * The list of newest entries.
 *
 * @param root The workspace root.
 * @param entries The entries to list, newest first.
 * @param undone For each entry undone, the entry that undid it.
 * @param filter The filters the list was made with.
 */
export function listPage(
  root: string,
  entries: readonly HistoryEntry[],
  undone: ReadonlyMap<string, string> = new Map(),
  filter: ListFilter = {},
): Html {
  const items = entries.map((e) =>
    html`
      <li>
        <a class="id" href="/history/${e.id}">${e.id}</a>
        <span
          class="muted"><time datetime="${e.time}">${when(
            e.time,
          )}</time> · ${visible(
            e.session,
          )} · ${e.door}${e.undoOf
            ? html`
              · undo of <a href="/history/${e.undoOf}">${e.undoOf}</a>
            `
            : ""}</span>${undoneMark(undone.get(e.id))}
        <ul class="files">${e.files.map(fileLine)}</ul>
      </li>
    `
  );
  const filtered = filter.session !== undefined || filter.path !== undefined;
  return layout(
    "hashline — edit history",
    html`<h1>Edit history</h1>
<p class="muted">Workspace ${visible(root)} · newest first${
      filtered
        ? html`
          · filtered (<a href="/">show all</a>)
        `
        : ""
    }</p>
<form class="filter" method="get" action="/">
  <label>Session <input name="session" value="${filter.session ?? ""}"></label>
  <label>File <input name="path" value="${filter.path ?? ""}"></label>
  <button type="submit">Filter</button>
</form>
${
      entries.length === 0
        ? html`<p>${filtered ? "No entries match." : "No edits yet."}</p>`
        : html`<ol class="entries">${items}</ol>`
    }`,
  );
}

/** Most diff lines the entry page shows of one file; the rest is counted. */
export const PAGE_DIFF_LINES = 2_000;

function diffClass(l: string): string {
  return l.startsWith("@@") || l.startsWith("---") || l.startsWith("+++")
    ? "h"
    : l.startsWith("+")
    ? "a"
    : l.startsWith("-")
    ? "d"
    : "";
}

/**
 * A file's diff as the page shows it: its first {@link PAGE_DIFF_LINES}
 * lines, then how many more there are and where the whole diff is (a
 * 400,000-line deletion would otherwise be tens of MB of markup).
 */
function diffBlock(diff: string, id: string): Html {
  const lines: Html[] = [];
  let at = 0;
  while (at <= diff.length && lines.length < PAGE_DIFF_LINES) {
    const end = diff.indexOf("\n", at);
    const l = diff.slice(at, end === -1 ? diff.length : end);
    lines.push(html`<span class="${diffClass(l)}">${visible(l)}</span>`);
    if (end === -1) {
      at = diff.length + 1;
      break;
    }
    at = end + 1;
  }
  // Lines left after the shown ones (a final line end opens no new line).
  let more = 0;
  if (at < diff.length) {
    more = 1;
    for (
      let i = diff.indexOf("\n", at);
      i !== -1;
      i = diff.indexOf("\n", i + 1)
    ) {
      if (i < diff.length - 1) more++;
    }
  }
  const rest = more === 0 ? "" : html`
    <p
      class="muted">${more.toLocaleString(
        "en-US",
      )} more diff lines not shown; the whole diff: <code>hashline show ${id}</code> or <code>GET /v1/history/${id}</code>.</p>
  `;
  return html`<pre class="diff">${lines}</pre>${rest}`;
}

/** What the entry page says about undo. */
export type UndoState =
  | { possible: true; csrf: string }
  | { possible: false; reason: string };

/**
 * One entry: its files with diffs, and the `Undo` form or why not.
 *
 * @param e The entry with its diffs.
 * @param undo Whether undo is possible (with the CSRF token) or why not.
 * @param notice A line to show above the diffs (an undo refused).
 * @param undoneBy The entry that undid this one, when one did.
 */
export function entryPage(
  e: EntryDetail,
  undo: UndoState,
  notice?: { ok: boolean; text: string },
  undoneBy?: string,
): Html {
  const files = e.files.map((f) =>
    html`<h2>${visible(f.path)}${
      fileTag(f)
    } <span class="add">+${f.added}</span> <span class="del">−${f.removed}</span></h2>
${
      f.diff === ""
        ? html`<p class="muted">No change.</p>`
        : diffBlock(f.diff, e.id)
    }`
  );
  const action = undo.possible
    ? html`
      <form method="post" action="/history/${e.id}/undo">
        <input type="hidden" name="csrf" value="${undo.csrf}">
        <button type="submit">Undo</button>
        <span
          class="muted">Reverts this entry as a new entry; later changes to other lines are kept.</span>
      </form>
    `
    : html`
      <p><strong>Undo is not possible.</strong></p>
      <p class="refused">${visibleLines(undo.reason)}</p>
    `;
  return layout(
    `hashline — ${e.id}`,
    html`
      <p><a href="/">← All entries</a></p>
      <h1><span class="id">${e.id}</span> ${headline(e)}</h1>
      <p
        class="muted"><time datetime="${e.time}">${when(
          e.time,
        )}</time> · session ${visible(e.session)} · door ${e.door}${e.undoOf
          ? html`
            · undo of <a href="/history/${e.undoOf}">${e.undoOf}</a>
          `
          : ""}${undoneMark(undoneBy)}</p>
      <p>${visible(e.summary)}</p>
      ${notice
        ? html`<p class="${notice.ok ? "ok" : "refused"}" role="status">${
          visibleLines(notice.text)
        }</p>`
        : ""}
      ${files}
      <div class="undo">${action}</div>
    `,
  );
}

/** A short page for refusals (login needed, not found). */
export function messagePage(title: string, text: string): Html {
  return layout(
    `hashline — ${title}`,
    html`
      <h1>${title}</h1>
      <p>${text}</p>
      <p><a href="/">Edit history</a></p>
    `,
  );
}
