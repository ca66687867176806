/**
 * How the project starts Debian's Chromium through playwright-core, for the
 * review page's browser test and the screenshot script alike: the system
 * binary, headless, as root, with the background traffic a closed network
 * refuses switched off.
 *
 * @module
 */

/** The system Chromium (Debian's `chromium` package). */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Flags for a headless run as root on a machine without outside network. */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
