/**
 * The review page served at `/` (docs/history.md, "The review page"): the newest history
 * entries, `/history/{id}` with each file's diff and an `Undo` form.
 *
 * It is mounted before the API's guards (a browser form cannot send JSON
 * or a bearer header), so it carries its own, equal or stricter:
 *
 * - without a token, the same Host/Origin guard as the API;
 * - with a token, a session cookie (HttpOnly, SameSite=Strict) that only
 *   the one-time login link `serve` prints (`/login?key=…`) sets; the token
 *   itself never appears in a page or a cookie;
 * - every form carries a CSRF token bound to that cookie, and a POST from a
 *   foreign Origin is refused;
 * - no script, a strict Content-Security-Policy, no framing, no caching;
 * - a form body over {@link FORM_MAX_BYTES} is refused while it streams
 *   (declared length or chunked), under the API's body deadline.
 *
 * An undo made here is recorded with door `page`; it is a supervisor's
 * door, so it needs no read.
 *
 * @module
 */
import { toHex } from "../_internal/bytes.ts";
import { sha256Hex } from "../_internal/sha256.ts";
import { Hono } from "hono";
import type { Context } from "hono";
import { HashlineError, PatchRefusedError } from "../errors.ts";
import type { Workspace } from "../workspace/mod.ts";
import type { HistoryEntry } from "../history/mod.ts";
import type { HttpEnv } from "./_env.ts";
import { DEFAULT_BODY_TIMEOUT_MS } from "./_guards.ts";
import {
  entryPage,
  type ListFilter,
  listPage,
  messagePage,
  type UndoState,
} from "./_page_view.ts";
import { readSmallBody } from "./middleware/form_body.ts";
import { hostGuard } from "./middleware/host_guard.ts";

/** Largest form body the page takes, in bytes. */
export const FORM_MAX_BYTES: number = 16 * 1024;

/** How far back the page looks for the undo of an entry. */
const UNDO_LOOKBACK = 10_000;

/** Name of the review page's session cookie. */
export const PAGE_COOKIE = "hashline_page";

/** What the review page needs. */
export interface PageOptions {
  workspace(): Promise<Workspace>;
  /** Session undo is recorded for. */
  session: string;
  /** The server's bearer token: when set, the page needs the login cookie. */
  token?: string;
  /** The one-time key of the login link (`/login?key=…`); only with a token. */
  loginKey?: string;
  allowedHosts?: string[];
  allowedOrigins?: string[];
  /** How long a form body may take to arrive, in milliseconds (default 30 000, as the API). */
  bodyTimeoutMs?: number;
}

/** For each entry undone, the newest entry that undid it. */
function undoneBy(entries: readonly HistoryEntry[]): Map<string, string> {
  const out = new Map<string, string>();
  // Newest first: the first undo seen of an entry is its newest.
  for (const e of entries) {
    if (e.undoOf !== undefined && !out.has(e.undoOf)) out.set(e.undoOf, e.id);
  }
  return out;
}

const HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  // Not no-referrer: then a form POST carries `Origin: null`, which the guard refuses.
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
};

function randomHex(bytes = 32): string {
  return toHex(crypto.getRandomValues(new Uint8Array(bytes)));
}

function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function cookieOf(c: Context<HttpEnv>): string | undefined {
  const header = c.req.header("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === PAGE_COOKIE) return v.join("=");
  }
  return undefined;
}

/**
 * A fresh one-time login key for {@link PageOptions.loginKey}.
 *
 * @returns 64 hex digits.
 */
export function newLoginKey(): string {
  return randomHex();
}

/** The review page's router. */
export function pageRoutes(options: PageOptions): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>();
  const guard = options.token === undefined
    ? hostGuard({
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
    })
    : undefined;
  const secret = randomHex();
  const sessions = new Set<string>();
  let loginKey = options.loginKey;

  const page = (
    body: ReturnType<typeof listPage>,
    status = 200,
    extra: Record<string, string> = {},
  ) =>
    Promise.resolve(body).then((text) =>
      new Response(String(text), {
        status,
        headers: {
          ...HEADERS,
          ...extra,
          "content-type": "text/html; charset=utf-8",
        },
      })
    );

  /** The guards; a Response when the request is refused, else the CSRF token of this browser. */
  const admit = async (c: Context<HttpEnv>): Promise<Response | string> => {
    if (guard) {
      let passed = false;
      const refused = await guard(c, () => {
        passed = true;
        return Promise.resolve();
      });
      if (!passed) return refused as Response;
    }
    let cookie = "";
    if (options.token !== undefined) {
      const got = cookieOf(c);
      if (got === undefined || !sessions.has(got)) {
        return await page(
          messagePage(
            "Login needed",
            "This server needs a login: open the one-time login link that hashline serve printed when it started (restart it for a new one).",
          ),
          401,
        );
      }
      cookie = got;
    }
    return await sha256Hex(new TextEncoder().encode(`${secret}|${cookie}`));
  };

  app.get("/login", async (c) => {
    if (guard) {
      const r = await admit(c);
      if (r instanceof Response) return r;
    }
    const key = c.req.query("key") ?? "";
    if (
      options.token === undefined || loginKey === undefined ||
      !sameText(key, loginKey)
    ) {
      return await page(
        messagePage(
          "Login link not valid",
          "This login link is wrong or was already used. Restart hashline serve for a new one.",
        ),
        401,
      );
    }
    loginKey = undefined;
    const session = randomHex();
    sessions.add(session);
    return new Response(null, {
      status: 303,
      headers: {
        ...HEADERS,
        location: "/",
        "set-cookie":
          `${PAGE_COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/`,
      },
    });
  });

  app.get("/", async (c) => {
    const r = await admit(c);
    if (r instanceof Response) return r;
    const ws = await options.workspace();
    const filter: ListFilter = {
      session: c.req.query("session") || undefined,
      path: c.req.query("path") || undefined,
    };
    let entries: HistoryEntry[];
    try {
      entries = await ws.history({ ...filter, limit: 200 });
    } catch (error) {
      if (error instanceof TypeError || error instanceof HashlineError) {
        return await page(
          messagePage("Filter not valid", error.message),
          400,
        );
      }
      throw error;
    }
    const all = filter.session || filter.path
      ? await ws.history({ limit: UNDO_LOOKBACK })
      : entries;
    return await page(listPage(ws.root, entries, undoneBy(all), filter));
  });

  const show = async (
    csrf: string,
    id: string,
    notice?: { ok: boolean; text: string },
    status = 200,
  ) => {
    const ws = await options.workspace();
    let entry;
    try {
      entry = await ws.entry(id);
    } catch (error) {
      if (error instanceof HashlineError && error.code === "NOT_FOUND") {
        return await page(messagePage("No such entry", error.message), 404);
      }
      // A path under /history/ that is no entry id: a page, not JSON.
      if (error instanceof TypeError) {
        return await page(messagePage("No such entry", error.message), 400);
      }
      throw error;
    }
    const undone = undoneBy(
      await ws.history({ limit: UNDO_LOOKBACK }),
    ).get(entry.id);
    let undo: UndoState = { possible: true, csrf };
    try {
      await ws.undo(id, { dryRun: true, session: options.session });
    } catch (error) {
      if (!(error instanceof HashlineError)) throw error;
      undo = {
        possible: false,
        reason: error instanceof PatchRefusedError
          ? error.problems.map((p) =>
            `${p.path ? `${p.path}: ` : ""}${p.message}`
          ).join("\n")
          : error.message,
      };
    }
    return await page(entryPage(entry, undo, notice, undone), status);
  };

  app.get("/history/:id", async (c) => {
    const r = await admit(c);
    if (r instanceof Response) return r;
    return await show(r, c.req.param("id"));
  });

  app.post("/history/:id/undo", async (c) => {
    const r = await admit(c);
    if (r instanceof Response) return r;
    const id = c.req.param("id");
    const origin = c.req.header("origin");
    const self = new URL(c.req.url).origin;
    const body = await readSmallBody(
      c.req.raw,
      FORM_MAX_BYTES,
      options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    );
    if (!body.ok) {
      const title = body.status === 413
        ? "Too large"
        : body.status === 408
        ? "Too slow"
        : "Bad form";
      return await page(messagePage(title, body.message), body.status);
    }
    const csrf = new URLSearchParams(body.text).get("csrf") ?? "";
    if (
      !sameText(csrf, r) ||
      (options.token !== undefined && origin !== undefined && origin !== self &&
        !(options.allowedOrigins ?? []).includes(origin))
    ) {
      return await page(
        messagePage(
          "Form expired",
          "This form is not valid any more (the server restarted, or it came from another page). Open the entry again and press Undo there.",
        ),
        403,
      );
    }
    const ws = await options.workspace();
    try {
      const done = await ws.undo(id, {
        session: options.session,
        door: "page",
      });
      return new Response(null, {
        status: 303,
        headers: { ...HEADERS, location: `/history/${done.id ?? id}` },
      });
    } catch (error) {
      if (!(error instanceof HashlineError)) throw error;
      if (error.code === "NOT_FOUND") {
        return await page(messagePage("No such entry", error.message), 404);
      }
      return await show(r, id, { ok: false, text: error.message }, 409);
    }
  });
  return app;
}
