/**
 * Names as file systems compare and bound them: folded spellings (case and
 * Unicode normalization, so a rule holds on case-insensitive and
 * normalizing file systems as on Linux) and byte lengths (a name is limited
 * to 255 bytes of UTF-8, not 255 UTF-16 units).
 *
 * @module
 */

/** Longest name most file systems accept, in bytes. */
export const NAME_MAX_BYTES = 255;

/**
 * The spelling rules compare: Unicode NFC with case folded, so `.GIT`,
 * `.Git` and `.git`, or an NFD and an NFC `café`, are one name, as they are
 * on the default file systems of macOS and Windows.
 */
export function foldName(name: string): string {
  return name.normalize("NFC").toLowerCase();
}

/**
 * Code points that HFS+ ignores in names and trailing dots and spaces that
 * Windows drops: `.g\u200cit` and `.git.` open `.git` there.
 */
const IGNORED = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u206a-\u206f\ufeff]/g;

/**
 * A folded name with what some file systems ignore removed, for rules that
 * guard one exact folder name (`.git`, `.hashline`).
 */
export function guardName(name: string): string {
  const kept = foldName(name).replace(IGNORED, "");
  const trimmed = kept.replace(/[. ]+$/, "");
  return trimmed === "" ? kept : trimmed;
}

/** The length of `text` in UTF-8 bytes (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/**
 * The longest start of `text` whose UTF-8 form fits in `maxBytes`, cut
 * between code points (never inside a character or a surrogate pair).
 */
export function cutUtf8(text: string, maxBytes: number): string {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let size = c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    let step = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        size = 4;
        step = 2;
      }
    }
    if (n + size > maxBytes) return text.slice(0, i);
    n += size;
    i += step - 1;
  }
  return text;
}
