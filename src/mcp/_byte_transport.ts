/**
 * An MCP transport over a pair of byte streams (newline-delimited JSON-RPC,
 * as the stdio transport frames it), for runtimes whose standard streams are
 * Web streams: the SDK's own stdio transport needs Node stream objects.
 * Messages are parsed and serialised by the SDK's own functions.
 *
 * @module
 */
import {
  deserializeMessage,
  type JSONRPCMessage,
  serializeMessage,
  type Transport,
} from "@modelcontextprotocol/server";
import { concatBytes } from "../_internal/bytes.ts";
import type { ByteStdio } from "../_runtime/env.ts";

/** Largest message accepted, as the SDK's stdio transport caps it. */
const MAX_BUFFER = 10 * 1024 * 1024;
const NL = 10;

/** A {@link Transport} over standard input and output given as byte streams. */
export class ByteStreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly io: ByteStdio;
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly decoder = new TextDecoder();
  private readonly encoder = new TextEncoder();

  /** @param io Standard input and output. */
  constructor(io: ByteStdio) {
    this.io = io;
  }

  /** Starts reading messages from standard input. */
  start(): Promise<void> {
    if (this.reader) {
      return Promise.reject(new Error("The transport is already started."));
    }
    this.reader = this.io.readable.getReader();
    void this.pump();
    return Promise.resolve();
  }

  private async pump(): Promise<void> {
    const reader = this.reader!;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done || this.closed) break;
        this.take(value);
      }
    } catch (error) {
      if (!this.closed) this.onerror?.(error as Error);
    }
    await this.close();
  }

  /** Splits a chunk into lines, each one message. */
  private take(chunk: Uint8Array): void {
    let from = 0;
    for (let nl = chunk.indexOf(NL); nl >= 0; nl = chunk.indexOf(NL, from)) {
      this.pending.push(chunk.subarray(from, nl));
      const line = this.joinPending();
      from = nl + 1;
      this.deliver(line);
    }
    if (from < chunk.length) {
      this.pending.push(chunk.slice(from));
      this.pendingBytes += chunk.length - from;
      if (this.pendingBytes > MAX_BUFFER) {
        this.pending = [];
        this.pendingBytes = 0;
        this.onerror?.(
          new Error(`A message exceeded the limit of ${MAX_BUFFER} bytes.`),
        );
      }
    }
  }

  private joinPending(): string {
    const parts = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    return this.decoder.decode(
      parts.length === 1 ? parts[0] : concatBytes(parts),
    );
  }

  private deliver(line: string): void {
    const text = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (text.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(text);
    } catch (error) {
      this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(message);
  }

  /** Writes one message; messages are written whole, one after another. */
  send(message: JSONRPCMessage): Promise<void> {
    const bytes = this.encoder.encode(serializeMessage(message));
    const next = this.writing.then(() => this.io.write(bytes));
    this.writing = next.catch(() => {});
    return next;
  }

  /** Stops reading and reports the close once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.reader?.cancel();
    } catch {
      // Standard input already gone.
    }
    await this.writing;
    this.onclose?.();
  }
}
