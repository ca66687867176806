/**
 * The throughput chart: one bar per ratio from 1× (as fast as the baseline)
 * to the ratio, on a log scale so 100× and 0.5× both stay readable; green
 * to the right is faster than the baseline, red to the left slower.
 *
 * @module
 */
import type { Ratio } from "./ratios.ts";

/** The command that regenerates the chart, shown in its title. */
export const COMMAND = "deno task bench:all";

const FASTER = "#2e7d32";
const SLOWER = "#c62828";

function esc(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(
    ">",
    "&gt;",
  ).replaceAll("`", "");
}

function times(v: number): string {
  if (v >= 100) return `${v.toFixed(0)}×`;
  if (v >= 10) return `${v.toFixed(1)}×`;
  return `${v.toFixed(2)}×`;
}

function tick(p: number): string {
  return p >= 0 ? `${10 ** p}×` : `${(10 ** p).toFixed(-p)}×`;
}

/**
 * SVG bars of every ratio against its named baseline.
 *
 * @param ratios The ratios, in the order to draw them.
 * @param subtitle A line under the title (machine and date).
 * @returns SVG text.
 */
export function ratioChart(ratios: readonly Ratio[], subtitle: string): string {
  const left = 290;
  const width = 420;
  const rowH = 22;
  const top = 58;
  const logs = ratios.map((r) => Math.log10(r.speed));
  // Room left of the slowest bar for its label.
  const lo = Math.min(-1, Math.min(0, ...logs) - 0.4);
  const hi = Math.max(1, Math.ceil(Math.max(0, ...logs)));
  const x = (log: number): number => left + (width * (log - lo)) / (hi - lo);
  const h = top + Math.max(1, ratios.length) * rowH + 30;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${
      left + width + 80
    }" height="${h}" font-family="sans-serif" font-size="12">`,
    `<text x="8" y="18" font-size="14" font-weight="bold">Times as fast as the named baseline, same run, log scale (${COMMAND})</text>`,
    `<text x="8" y="36" fill="#555">${esc(subtitle)}</text>`,
  ];
  const axisY = top + ratios.length * rowH;
  for (let p = Math.ceil(lo); p <= hi; p++) {
    const tx = x(p).toFixed(1);
    parts.push(
      `<line x1="${tx}" y1="${top - 6}" x2="${tx}" y2="${axisY}" stroke="${
        p === 0 ? "#333" : "#ddd"
      }"/>`,
      `<text x="${tx}" y="${axisY + 16}" text-anchor="middle">${
        tick(p)
      }</text>`,
    );
  }
  parts.push(
    `<text x="${(x(0) + 6).toFixed(1)}" y="${
      top - 10
    }" fill="${FASTER}">faster →</text>`,
    `<text x="${(x(0) - 6).toFixed(1)}" y="${
      top - 10
    }" text-anchor="end" fill="${SLOWER}">← slower</text>`,
  );
  ratios.forEach((r, i) => {
    const y = top + i * rowH;
    const log = Math.log10(r.speed);
    const a = Math.min(x(0), x(log));
    const w = Math.max(1, Math.abs(x(log) - x(0)));
    const faster = r.speed >= 1;
    parts.push(
      `<text x="${left - 8}" y="${y + 15}" text-anchor="end">${
        esc(r.label)
      }</text>`,
      `<rect x="${a.toFixed(1)}" y="${y + 4}" width="${w.toFixed(1)}" height="${
        rowH - 8
      }" fill="${faster ? FASTER : SLOWER}"/>`,
    );
    const label = times(r.speed);
    parts.push(
      faster
        ? `<text x="${(x(log) + 4).toFixed(1)}" y="${y + 15}">${label}</text>`
        : `<text x="${(x(log) - 4).toFixed(1)}" y="${
          y + 15
        }" text-anchor="end">${label}</text>`,
    );
  });
  parts.push("</svg>");
  return parts.join("\n") + "\n";
}
