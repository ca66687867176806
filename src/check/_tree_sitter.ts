/**
 * `web-tree-sitter` (an optional peer) as a module of this package: loaded
 * through `lazy()`, so a patch can start loading it with the checker's own
 * modules, in the same round of module loading, before the checker asks
 * for it. Its import fails when the package is not installed.
 *
 * @module
 */
export { Language, Parser } from "web-tree-sitter";
