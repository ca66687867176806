/**
 * Which addresses only reach this machine.
 *
 * @module
 */

/**
 * Whether a hostname or IP address only reaches this machine.
 *
 * @param host A hostname or IP address (IPv6 with or without brackets).
 * @returns True for `localhost`, `127.x.x.x`, `::1` and `::ffff:127.0.0.1`.
 */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return h === "localhost" || h === "::1" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) ||
    h === "::ffff:127.0.0.1" || h === "::ffff:7f00:1";
}
