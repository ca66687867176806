/**
 * One flush of the log for many appends (docs/history.md, "Crash
 * consistency and cost"): a record appended without waiting is covered by
 * the next flush, which serves every record appended while the one before
 * it ran.
 *
 * @module
 */
import { closeSync, fsync } from "../../_runtime/fs.ts";
import { openStateFile } from "../../fs/open_state.ts";

/** Flushes of one log file, shared by the appends that wait for them. */
export class GroupFlush {
  readonly #file: string;
  /** Records appended without a flush, and how many a flush covers. */
  #appended = 0;
  #flushedSeq = 0;
  #draining = false;
  #flushWaiters: {
    seq: number;
    resolve: () => void;
    reject: (error: unknown) => void;
  }[] = [];
  #afterFlush: { seq: number; then: () => void }[] = [];
  #waiting: { seq: number; resolve: () => void }[] = [];

  /** @param file The log file to flush. */
  constructor(file: string) {
    this.#file = file;
  }

  /**
   * Counts an append and starts a flush that covers it.
   *
   * @returns Resolves once a flush covers the append; rejects when that
   * flush failed (handled here too, so a failure is never unhandled).
   */
  covered(): Promise<void> {
    const seq = ++this.#appended;
    const flushed = new Promise<void>((resolve, reject) =>
      this.#flushWaiters.push({ seq, resolve, reject })
    );
    flushed.catch(() => {});
    this.#kick();
    return flushed;
  }

  /**
   * Counts an append and runs `then` once a flush covers it; never when
   * that flush failed.
   */
  then(then: () => void): void {
    this.#afterFlush.push({ seq: ++this.#appended, then });
    this.#kick();
  }

  /** Resolves once a flush covers every append counted so far (never rejects). */
  settled(): Promise<void> {
    const seq = this.#appended;
    if (this.#flushedSeq >= seq) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push({ seq, resolve }));
  }

  #kick(): void {
    if (this.#draining) return;
    this.#draining = true;
    void this.#drain();
  }

  /** Flushes the log until every append counted so far is covered. */
  async #drain(): Promise<void> {
    while (this.#flushedSeq < this.#appended) {
      const upTo = this.#appended;
      let failure: unknown = null;
      try {
        const fd = openStateFile(this.#file);
        try {
          await new Promise<void>((resolve, reject) =>
            fsync(fd, (error) => error ? reject(error) : resolve())
          );
        } finally {
          closeSync(fd);
        }
      } catch (error) {
        failure = error;
      }
      this.#flushedSeq = upTo;
      const due = this.#afterFlush.filter((a) => a.seq <= upTo);
      this.#afterFlush = this.#afterFlush.filter((a) => a.seq > upTo);
      if (failure === null) {
        for (const a of due) {
          try {
            a.then();
          } catch {
            // A journal that cannot go is settled by recovery.
          }
        }
      }
      const flushed = this.#flushWaiters.filter((w) => w.seq <= upTo);
      this.#flushWaiters = this.#flushWaiters.filter((w) => w.seq > upTo);
      for (const w of flushed) {
        if (failure === null) w.resolve();
        else w.reject(failure);
      }
      const woken = this.#waiting.filter((w) => w.seq <= upTo);
      this.#waiting = this.#waiting.filter((w) => w.seq > upTo);
      for (const w of woken) w.resolve();
    }
    this.#draining = false;
  }
}
