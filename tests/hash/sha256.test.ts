import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { toHex } from "../../src/_internal/bytes.ts";
import {
  sha256,
  sha256Engine,
  WARM_AFTER,
} from "../../src/_internal/sha256.ts";

const encode = (s: string) => new TextEncoder().encode(s);

/** Inputs of several sizes, the same every run. */
function samples(): Uint8Array[] {
  const out = [new Uint8Array(0), encode("abc")];
  let x = 7;
  for (const size of [1, 63, 64, 65, 6080, 1 << 20]) {
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i++) {
      bytes[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
    }
    out.push(bytes);
  }
  return out;
}

describe("sha256", () => {
  it("gives the standard digests, and the same ones once node:crypto answers", async () => {
    assert.equal(
      toHex(await sha256(encode("abc"))),
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    assert.equal(
      toHex(await sha256(new Uint8Array(0))),
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    const viaWebCrypto = await Promise.all(
      samples().map(async (b) =>
        toHex(
          new Uint8Array(
            await crypto.subtle.digest(
              "SHA-256",
              b as Uint8Array<ArrayBuffer>,
            ),
          ),
        )
      ),
    );
    for (let i = 0; i < WARM_AFTER; i++) await sha256(encode(`warm ${i}`));
    await sha256Engine().settled;
    // Deno, Bun and Node all have node:crypto: a process that hashed a few
    // times uses it from then on.
    assert.equal(sha256Engine().engine, "node:crypto");
    const now = await Promise.all(
      samples().map(async (b) => toHex(await sha256(b))),
    );
    assert.deepEqual(now, viaWebCrypto);
    assert.equal(toHex(await sha256(encode("abc")), 4), "ba7816bf");
  });
});
