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
  /**
   * When the body must have arrived (epoch milliseconds), for a body of
   * declared length (see `bodyDeadline`); the reader of the body enforces it.
   */
  bodyDeadline: number | undefined;
}

/** The Hono `Env` of every router of the app. */
export interface HttpEnv {
  Variables: HttpVariables;
}
