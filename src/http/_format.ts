/**
 * `POST /v1/format`'s answer: the same view as `formatHashlines`, as the
 * JSON text of `{ ok: true, ...view }`. The anchor byte of every line comes
 * from the hash engine (Wasm where it can run) in one pass over the UTF-8
 * bytes; the lines come from one native split, get their `LINE:HH|` prefix
 * from tables of ready-made pieces, and the joined text is escaped once.
 * Per-character work stays in the engine and in the runtime's own
 * `split`/`join`/`JSON.stringify`: a byte-by-byte escaping loop in
 * JavaScript measured slower than the request's whole native share.
 *
 * Where the Wasm engine runs, {@link formatAnswerBytes} has it do all of
 * that in one pass over the UTF-8 bytes (split, hash, prefix, escape) and
 * answers with bytes; the string path here is its twin, taken where the
 * engine cannot load or gives up (a line that needs the cut marker, content
 * over one chunk), and the two answer the same bytes.
 *
 * @module
 */
import { formatHashlines, formatLine, readWindow } from "../anchor/format.ts";
import type { HashlineView } from "../anchor/format.ts";
import { type HashEngine, hashEngine, hashLines } from "../hash/mod.ts";
import { wasmFormatBody, wasmFormatInto } from "../hash/_wasm_format.ts";

const encoder = new TextEncoder();

/** The window a request asks for (both fields optional). */
export interface FormatWindow {
  /** First line to show, 1-based. */
  offset?: number;
  /** Most lines to show. */
  limit?: number;
}

/** `:HH|` for every anchor byte. */
const ANCHOR_PIECES: string[] = Array.from(
  { length: 256 },
  (_, b) => `:${b.toString(16).padStart(2, "0")}|`,
);

/** Line numbers already turned into text; lines near the top of files come back on every read. */
const NUMBERS: string[] = [];
const CACHED_NUMBERS = 1 << 16;

function numberText(n: number): string {
  if (n >= CACHED_NUMBERS) return String(n);
  return NUMBERS[n] ??= String(n);
}

/**
 * The whole `POST /v1/format` answer, `{"ok":true,"text":…,"totalLines":…,
 * "startLine":…,"endLine":…,"nextOffset":…}`: the text `JSON.stringify`
 * gives for `{ ok: true, ...formatHashlines(content, window) }`.
 *
 * @param content The text to read (a leading BOM is hidden).
 * @param window `offset` and `limit`, checked as `formatHashlines` checks them.
 * @returns The answer's JSON text.
 * @throws {RangeError} An offset past the last line, or a bad window.
 */
export function formatAnswer(content: string, window: FormatWindow): string {
  // A lone surrogate has no UTF-8 form: the engine would hash U+FFFD instead.
  if (!content.isWellFormed()) {
    return answerText(formatHashlines(content, window));
  }
  const win = readWindow(Number.MAX_SAFE_INTEGER, window);
  const body = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  const lines = body.split("\n");
  // A final terminator ends the last line; it does not open an empty one.
  const terminated = lines[lines.length - 1] === "";
  if (terminated) lines.pop();
  const total = lines.length;
  const { startLine, endLine, nextOffset } = readWindow(total, window);
  const folds = hashLines(encoder.encode(content));
  const shown = startLine === 1 && endLine === total
    ? lines
    : lines.slice(startLine - 1, endLine);
  const hasCr = body.includes("\r");
  const max = win.maxLineChars;
  for (let i = 0; i < shown.length; i++) {
    const n = startLine + i;
    let line = shown[i];
    // Only a line ended by "\n" can end in a CRLF; an unterminated last line keeps its CR.
    if (
      hasCr && line.charCodeAt(line.length - 1) === 13 &&
      (n < total || terminated)
    ) line = line.slice(0, -1);
    shown[i] = line.length > max
      ? formatLine(n, line, max, folds[n - 1])
      : numberText(n) + ANCHOR_PIECES[folds[n - 1]] + line;
  }
  return answerText({
    text: shown.join("\n"),
    totalLines: total,
    startLine,
    endLine,
    nextOffset,
  });
}

/** What follows the text in an answer: `,"totalLines":…,"nextOffset":…}`. */
function answerTail(view: Omit<HashlineView, "text">): string {
  return `,"totalLines":${view.totalLines},"startLine":${view.startLine},"endLine":${view.endLine},"nextOffset":${view.nextOffset}}`;
}

/** The answer text of a view already rendered. */
function answerText(view: HashlineView): string {
  return `{"ok":true,"text":${JSON.stringify(view.text)}${answerTail(view)}`;
}

const HEAD = encoder.encode('{"ok":true,"text":"');

/**
 * {@link formatAnswer} as UTF-8 bytes, built by the Wasm engine in one pass
 * where it can (see the module notes), else by the string path.
 *
 * @param content The text to read (a leading BOM is hidden).
 * @param window `offset` and `limit`, checked as `formatHashlines` checks them.
 * @param engine `"wasm"` (default where it loads) or `"ts"` (the string path).
 * @returns The answer's JSON text in UTF-8.
 * @throws {RangeError} An offset past the last line, or a bad window.
 */
export function formatAnswerBytes(
  content: string,
  window: FormatWindow,
  engine: HashEngine = hashEngine(),
): Uint8Array<ArrayBuffer> {
  if (engine === "wasm" && content.isWellFormed()) {
    // Options are checked before any work, as formatHashlines checks them.
    const asked = readWindow(Number.MAX_SAFE_INTEGER, window);
    // The content is encoded straight into the engine, and the view is
    // copied once, into the answer, between its head and tail.
    const answer = wasmFormatInto(
      content,
      asked.startLine,
      asked.endLine,
      asked.maxLineChars,
      (text, total) => {
        const { startLine, endLine, nextOffset } = readWindow(total, window);
        // The text's closing quote opens the tail.
        const tail = `"${
          answerTail({ totalLines: total, startLine, endLine, nextOffset })
        }`;
        // The tail is ASCII: one byte per character.
        const out = new Uint8Array(HEAD.length + text.length + tail.length);
        out.set(HEAD, 0);
        out.set(text, HEAD.length);
        encoder.encodeInto(tail, out.subarray(HEAD.length + text.length));
        return out;
      },
    );
    if (answer !== null) return answer;
  }
  return encoder.encode(formatAnswer(content, window));
}

/** The window of a request that names neither `offset` nor `limit`. */
const WHOLE: FormatWindow = {};
const WHOLE_ASKED = readWindow(Number.MAX_SAFE_INTEGER, WHOLE);

/**
 * The answer to the request body `{"content":"…"}` (the shape nearly every
 * call has), straight from the body's bytes: the engine unescapes the
 * content in its own memory, so neither decoding the body nor `JSON.parse`
 * runs. The same text as {@link formatAnswer} gives for the parsed content.
 *
 * The answer is a string, not bytes: a served request then allocates no
 * array buffer but its body's. Buffers live outside the JavaScript heap,
 * and a request that allocates little else lets them pile up until the
 * engine runs full collections for them, which cost more than the pass
 * itself; a string is young garbage, cleared by the cheap collections.
 *
 * @param body The request body's bytes.
 * @param engine Only `"wasm"` takes this path.
 * @returns The answer's JSON text, or null when this path does not take
 *   the body (another shape, anything `JSON.parse` or the UTF-8 decoder
 *   would refuse, a lone surrogate, a line that needs the cut marker): the
 *   caller then parses the body and answers as it always did.
 */
export function formatBodyAnswer(
  body: Uint8Array,
  engine: HashEngine = hashEngine(),
): string | null {
  if (engine !== "wasm") return null;
  return wasmFormatBody(
    body,
    WHOLE_ASKED.startLine,
    WHOLE_ASKED.endLine,
    WHOLE_ASKED.maxLineChars,
    HEAD,
    wholeTail,
  );
}

/** What follows the text of a whole-window answer: its closing quote, then the fields. */
function wholeTail(total: number): string {
  const { startLine, endLine, nextOffset } = readWindow(total, WHOLE);
  return `"${
    answerTail({ totalLines: total, startLine, endLine, nextOffset })
  }`;
}
