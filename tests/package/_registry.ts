/**
 * A throwaway npm registry on 127.0.0.1 that serves one packed tarball
 * under its own name and passes every other request through to the
 * registry npm is configured with. npm, Bun and Deno then install the
 * package with the very command lines the README gives, as if it were
 * published.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A running registry. */
export interface LocalRegistry {
  /** Base URL, with a trailing slash. */
  url: string;
  /** How many times the tarball was downloaded (an install from a cache would not count). */
  tarballHits(): number;
  close(): Promise<void>;
}

/** The package.json fields an install reads from a packument. */
const MANIFEST_FIELDS = [
  "name",
  "version",
  "description",
  "license",
  "type",
  "engines",
  "exports",
  "types",
  "bin",
  "dependencies",
  "peerDependencies",
  "peerDependenciesMeta",
];

/**
 * Serves `tarball` (whose package.json is `manifest`) and proxies the rest
 * to `upstream`.
 */
export async function startRegistry(
  tarball: string,
  manifest: Record<string, unknown>,
  upstream: string,
): Promise<LocalRegistry> {
  const bytes = await readFile(tarball);
  const name = String(manifest.name);
  const version = String(manifest.version);
  const file = `${name.replace(/^@[^/]+\//, "")}-${version}.tgz`;
  const base = upstream.endsWith("/") ? upstream : upstream + "/";
  let url = "";
  let hits = 0;

  const packument = () => {
    const entry: Record<string, unknown> = {};
    for (const key of MANIFEST_FIELDS) {
      if (manifest[key] !== undefined) entry[key] = manifest[key];
    }
    entry.dist = {
      tarball: `${url}${name}/-/${file}`,
      shasum: createHash("sha1").update(bytes).digest("hex"),
      integrity: `sha512-${
        createHash("sha512").update(bytes).digest("base64")
      }`,
    };
    return JSON.stringify({
      name,
      "dist-tags": { latest: version },
      versions: { [version]: entry },
    });
  };

  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? "/").split("?")[0]);
    if (path === `/${name}`) {
      res.writeHead(200, {
        "content-type": "application/json",
        "cache-control": "no-store",
      });
      res.end(packument());
      return;
    }
    if (path === `/${name}/-/${file}`) {
      hits++;
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(bytes);
      return;
    }
    const accept = req.headers.accept;
    fetch(base + (req.url ?? "/").slice(1), {
      headers: accept ? { accept } : {},
    }).then(async (upstreamRes) => {
      const body = new Uint8Array(await upstreamRes.arrayBuffer());
      res.writeHead(upstreamRes.status, {
        "content-type": upstreamRes.headers.get("content-type") ??
          "application/octet-stream",
      });
      res.end(body);
    }, (error) => {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve())
  );
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    tarballHits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
