/**
 * The writer of a streamed rewrite (docs/patch-format.md#terminators): new
 * lines get the file's first terminator, and the final-newline state is
 * settled at the end.
 *
 * @module
 */
import type { FileHandle } from "../_runtime/file_handle.ts";
import { CHUNK_BYTES } from "../fs/io.ts";

const encoder = new TextEncoder();
const NL = encoder.encode("\n");
const CRLF = encoder.encode("\r\n");

/**
 * Writes a file's new content while keeping its last three bytes back, so
 * the final-newline rules of docs/patch-format.md can be settled at the end.
 */
export class TailWriter {
  private readonly out: FileHandle;
  private readonly buf = new Uint8Array(CHUNK_BYTES);
  private len = 0;
  private total = 0;
  private readonly bomLen: number;
  private readonly eol: "\n" | "\r\n";
  private readonly keepNewline: boolean;

  constructor(
    out: FileHandle,
    bomLen: number,
    eol: "\n" | "\r\n",
    keepNewline: boolean,
  ) {
    this.out = out;
    this.bomLen = bomLen;
    this.eol = eol;
    this.keepNewline = keepNewline;
  }

  private byteBack(k: number): number {
    return k <= this.len ? this.buf[this.len - k] : -1;
  }

  private async emit(bytes: Uint8Array): Promise<void> {
    let at = 0;
    while (at < bytes.length) {
      const { bytesWritten } = await this.out.write(
        bytes,
        at,
        bytes.length - at,
      );
      at += bytesWritten;
    }
  }

  async write(bytes: Uint8Array): Promise<void> {
    this.total += bytes.length;
    if (this.len + bytes.length <= this.buf.length) {
      this.buf.set(bytes, this.len);
      this.len += bytes.length;
      return;
    }
    await this.emit(this.buf.subarray(0, this.len));
    if (bytes.length > 3) await this.emit(bytes.subarray(0, bytes.length - 3));
    const rest = bytes.subarray(Math.max(0, bytes.length - 3));
    this.buf.set(rest, 0);
    this.len = rest.length;
  }

  private term(afterCr: boolean): Uint8Array {
    return this.eol === "\r\n" || afterCr ? CRLF : NL;
  }

  /** Writes one new line with its terminator, first ending an unterminated last line. */
  async line(text: string): Promise<void> {
    if (this.total > this.bomLen && this.byteBack(1) !== 10) {
      await this.write(this.term(this.byteBack(1) === 13));
    }
    await this.write(encoder.encode(text));
    await this.write(this.term(text.endsWith("\r")));
  }

  /** Settles the final terminator and flushes. */
  async finish(): Promise<void> {
    if (this.total > this.bomLen) {
      const t = this.byteBack(1) === 10 ? (this.byteBack(2) === 13 ? 2 : 1) : 0;
      const lastEmpty = t > 0 &&
        (this.total - t === this.bomLen || this.byteBack(t + 1) === 10);
      if (!(this.keepNewline || lastEmpty) && t > 0) {
        this.len -= t;
        this.total -= t;
      } else if ((this.keepNewline || lastEmpty) && t === 0) {
        await this.write(this.term(this.byteBack(1) === 13));
      }
    }
    await this.emit(this.buf.subarray(0, this.len));
    this.len = 0;
  }
}
