/**
 * Guessing the language of a text that has no file name (a stored
 * revision; docs/syntax-checks.md, "Modes"): the first installed grammar,
 * strictest first, under which it parses without an error.
 *
 * @module
 */
import { type LoadedGrammar, loadGrammar } from "./_engine.ts";
import { utf8Length } from "./_text.ts";
import { type Grammar, GRAMMARS } from "./languages.ts";

/** Largest content whose language is guessed by parsing it. */
const SNIFF_BYTES = 256 * 1024;
/** Grammars tried when guessing, strictest first (YAML and Bash accept much). */
const SNIFF_ORDER: readonly Grammar[] = [
  ".json",
  ".ts",
  ".py",
  ".go",
  ".rs",
  ".css",
  ".toml",
  ".yaml",
  ".sh",
].map((ext) => GRAMMARS[ext]);

/**
 * The grammar a text parses clean under, tried strictest first.
 *
 * @param text The text (a leading BOM is ignored).
 * @param errorsOf The checker's answer for a text under a grammar (null
 *   when it ran out of time).
 * @returns The grammar, or null when none fits or the text is too large.
 */
export async function sniffGrammar(
  text: string,
  errorsOf: (
    grammar: LoadedGrammar,
    text: string,
  ) => Promise<{ errors: readonly unknown[] } | null>,
): Promise<Grammar | null> {
  if (utf8Length(text, SNIFF_BYTES) > SNIFF_BYTES) return null;
  for (const g of SNIFF_ORDER) {
    const loaded = await loadGrammar(g);
    if (typeof loaded === "string") continue;
    const a = await errorsOf(loaded, text.replace(/^\uFEFF/, ""));
    if (a && a.errors.length === 0) return g;
  }
  return null;
}
