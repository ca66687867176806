/**
 * The Hono environment of the app's routers: what middleware leaves on the
 * context for the handlers after it.
 *
 * @module
 */

/** Context variables set by the app's middleware. */
export interface HttpVariables {
  /** The request body, parsed from strictly decoded UTF-8 JSON (see `jsonBody`). */
  body: unknown;
}

/** The Hono `Env` of every router of the app. */
export interface HttpEnv {
  Variables: HttpVariables;
}
