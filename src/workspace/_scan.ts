// TEMPORARY stand-in for src/hash/mod.ts createLineScanner until it lands.
import type { LineBatch, LineScanner } from "../hash/types.ts";

const OFFSET_BASIS = 0x811c9dc5;
const PRIME = 0x01000193;

export function createLineScanner(
  options: { engine?: "wasm" | "ts"; hash?: boolean } = {},
): LineScanner {
  const hashing = options.hash !== false;
  let hashes = new Uint32Array(1024);
  let ends = new Float64Array(1024);
  let count = 0;
  let seen = 0;
  let lines = 0;
  let h = OFFSET_BASIS;
  let cp = 0;
  let need = 0;
  let cr = false;
  let open = false;
  let bom = false;
  let nulAt = -1;
  const feed = (c: number) => {
    h = Math.imul(h ^ (c & 0xff), PRIME);
    if (c > 0xff) {
      h = Math.imul(h ^ ((c >>> 8) & 0xff), PRIME);
      if (c > 0xffff) h = Math.imul(h ^ (c >>> 16), PRIME);
    }
  };
  const close = (end: number) => {
    if (count === ends.length) {
      const e2 = new Float64Array(count * 2);
      e2.set(ends);
      ends = e2;
      const h2 = new Uint32Array(count * 2);
      h2.set(hashes);
      hashes = h2;
    }
    ends[count] = end;
    hashes[count] = h >>> 0;
    count++;
    lines++;
    h = OFFSET_BASIS;
    open = false;
  };
  const batch = (): LineBatch => ({ count, hashes, ends });
  return {
    engine: "ts",
    get invalidAt() {
      return -1;
    },
    get nulAt() {
      return nulAt;
    },
    get hasBom() {
      return bom;
    },
    get bytesSeen() {
      return seen;
    },
    get linesSeen() {
      return lines;
    },
    push(chunk: Uint8Array): LineBatch {
      count = 0;
      let i = 0;
      if (
        seen === 0 && chunk[0] === 0xef && chunk[1] === 0xbb &&
        chunk[2] === 0xbf
      ) {
        bom = true;
        i = 3;
      }
      const base = seen;
      if (!hashing) {
        for (;;) {
          const nl = chunk.indexOf(10, i);
          if (nl < 0) break;
          close(base + nl + 1);
          i = nl + 1;
        }
        if (i < chunk.length) open = true;
        seen += chunk.length;
        return batch();
      }
      for (; i < chunk.length; i++) {
        const b = chunk[i];
        if (b === 0 && nulAt < 0) nulAt = base + i;
        open = true;
        if (cr) {
          cr = false;
          if (b === 10) {
            close(base + i + 1);
            continue;
          }
          feed(13);
        }
        if (b === 10) {
          close(base + i + 1);
          continue;
        }
        if (b === 13) {
          cr = true;
          continue;
        }
        if (need > 0) {
          cp = (cp << 6) | (b & 0x3f);
          if (--need === 0) feed(cp);
          continue;
        }
        if (b < 0x80) feed(b);
        else if (b >= 0xf0) (cp = b & 7), (need = 3);
        else if (b >= 0xe0) (cp = b & 15), (need = 2);
        else (cp = b & 31), (need = 1);
      }
      seen += chunk.length;
      return batch();
    },
    end(): LineBatch {
      count = 0;
      if (cr) feed(13);
      cr = false;
      if (open) close(seen);
      return batch();
    },
  };
}
