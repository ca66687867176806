/**
 * Medians, means and fixed-width number formatting for the report (fixed
 * decimals, so a rerun writes the same bytes).
 *
 * @module
 */

/**
 * The median of numbers (mean of the middle two for an even count).
 *
 * @param xs Numbers.
 * @returns The median, or NaN for none.
 */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * The mean of numbers.
 *
 * @param xs Numbers.
 * @returns The mean, or NaN for none.
 */
export function mean(xs: readonly number[]): number {
  return xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/**
 * A number with thousands separators and `digits` decimals.
 *
 * @param x The number.
 * @param digits Decimals (default 0).
 * @returns The text (`–` for NaN).
 */
export function num(x: number, digits = 0): string {
  if (!Number.isFinite(x)) return "–";
  const [int, frac] = Math.abs(x).toFixed(digits).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return (x < 0 ? "-" : "") + grouped + (frac ? "." + frac : "");
}

/**
 * A ratio as `0.42×`.
 *
 * @param a Numerator.
 * @param b Denominator.
 * @returns The text.
 */
export function ratio(a: number, b: number): string {
  return b === 0 || !Number.isFinite(a / b) ? "–" : `${(a / b).toFixed(2)}×`;
}

/**
 * A share as a percentage with one decimal.
 *
 * @param part Count.
 * @param whole Total.
 * @returns `12.5%`.
 */
export function pct(part: number, whole: number): string {
  return whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)}%`;
}

/**
 * A Markdown table.
 *
 * @param head Header cells.
 * @param rows Body rows.
 * @param align Per column `l` or `r` (default: first left, rest right).
 * @returns The table, one line per row.
 */
export function table(
  headCells: readonly string[],
  rowCells: readonly (readonly string[])[],
  align?: readonly ("l" | "r")[],
): string {
  let head = headCells;
  let rows = rowCells;
  const al = align ?? head.map((_, i) => (i === 0 ? "l" : "r"));
  const cell = (c: string): string => c.replaceAll("|", "\\|");
  head = head.map(cell);
  rows = rows.map((r) => r.map(cell));
  const widths = head.map((h, i) =>
    Math.max(3, h.length, ...rows.map((r) => r[i].length))
  );
  const line = (cells: readonly string[]): string =>
    "| " +
    cells.map((
      c,
      i,
    ) => (al[i] === "r" ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(
      " | ",
    ) +
    " |";
  const rule = "| " +
    widths.map((
      w,
      i,
    ) => (al[i] === "r" ? "-".repeat(w - 1) + ":" : "-".repeat(w))).join(
      " | ",
    ) + " |";
  return [line(head), rule, ...rows.map(line)].join("\n");
}
