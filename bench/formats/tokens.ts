/**
 * Token counts with real tokenizers from npm: o200k (GPT-4o and later, via
 * `gpt-tokenizer`) and Anthropic's published Claude tokenizer
 * (`@anthropic-ai/tokenizer`, the only offline one; newer Claude models
 * tokenize somewhat differently, so its counts are indicative).
 *
 * @module
 */
import { getTokenizer } from "@anthropic-ai/tokenizer";
import { encode } from "gpt-tokenizer/encoding/o200k_base";

/** The tokenizers counted. */
export const TOKENIZERS = ["o200k", "claude"] as const;

/** One tokenizer's name. */
export type TokenizerName = typeof TOKENIZERS[number];

/** Counts tokens of texts. */
export interface TokenCounter {
  /** Tokens of `text` under `tokenizer`. */
  count(tokenizer: TokenizerName, text: string): number;
}

let claudeTokenizer: ReturnType<typeof getTokenizer> | undefined;

/**
 * Creates a counter over one Claude tokenizer per process, remembering the
 * counts of long texts
 * (a whole file is counted once however many tasks use it).
 *
 * @returns The counter.
 */
export function createTokenCounter(): TokenCounter {
  // Built once per process: building it costs far more than counting.
  const claude = claudeTokenizer ??= getTokenizer();
  const cache = new Map<string, number>();
  return {
    count(tokenizer, text) {
      const long = text.length > 4096;
      const key = long ? `${tokenizer}\u0000${text}` : "";
      if (long) {
        const hit = cache.get(key);
        if (hit !== undefined) return hit;
      }
      const n = tokenizer === "o200k"
        ? encode(text).length
        : claude.encode(text.normalize("NFKC"), "all").length;
      if (long) cache.set(key, n);
      return n;
    },
  };
}
