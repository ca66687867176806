/**
 * The app's routes as its 404 and 405 answers name them, read from the
 * routes the app itself registered (Hono's `app.routes`), so a route added
 * to a route file is known to those answers with nothing else to edit.
 *
 * @module
 */

/** One registered route, as Hono lists it. */
export interface RegisteredRoute {
  /** The path pattern, e.g. `/v1/revisions/:ref`. */
  path: string;
  /** The method, or `ALL` for middleware and catch-alls. */
  method: string;
}

/** Route paths and the methods they take, for the 404 and 405 answers. */
export interface RouteTable {
  /** Each path pattern with the methods it takes (`"POST, DELETE"`). */
  methods: [RegExp, string][];
  /** The routes as one sentence part, e.g. `GET /health, POST /v1/format`. */
  list: string;
}

const API = /^\/(health|v1|mcp)(\/|$)/;

/**
 * Builds the table from the registered routes: middleware (`ALL`) and
 * wildcard paths are left out, the API's routes are listed before the
 * review page's, and `:name` is shown as `{name}`.
 *
 * @param routes The app's routes, in the order they were added.
 * @returns The table.
 */
export function routeTable(routes: readonly RegisteredRoute[]): RouteTable {
  const byPath = new Map<string, string[]>();
  for (const { path, method } of routes) {
    if (method === "ALL" || path.includes("*")) continue;
    const methods = byPath.get(path) ?? [];
    if (!methods.includes(method)) methods.push(method);
    byPath.set(path, methods);
  }
  const paths = [...byPath.keys()].sort((a, b) =>
    Number(!API.test(a)) - Number(!API.test(b))
  );
  return {
    methods: paths.map((path) => [
      new RegExp(
        `^${
          path.split("/").map((part) =>
            part.startsWith(":")
              ? "[^/]+"
              : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
          ).join("/")
        }$`,
      ),
      byPath.get(path)!.join(", "),
    ]),
    list: paths.flatMap((path) =>
      byPath.get(path)!.map((method) =>
        `${method} ${path.replace(/:([^/]+)/g, "{$1}")}`
      )
    ).join(", "),
  };
}
