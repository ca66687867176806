/**
 * This process's queue of takers of one lock: each waits for the taker
 * before it, so callers in one process line up instead of polling the lock
 * file against each other.
 *
 * @module
 */

/** A queue per key; each value settles when its last taker is done. */
export type LockQueues = Map<string, Promise<void>>;

/**
 * Joins the queue of `key`.
 *
 * @param queues The queues of one kind of lock.
 * @param key The lock's key.
 * @returns `prev`, which settles when the taker before is done (`first`:
 *   there is none, so it is settled already), and `finish`, to call once
 *   when this taker is done (or gives up).
 */
export function joinQueue(
  queues: LockQueues,
  key: string,
): { prev: Promise<void>; first: boolean; finish: () => void } {
  const before = queues.get(key);
  const prev = before ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((r) => (done = r));
  const tail = prev.then(() => mine);
  queues.set(key, tail);
  const finish = () => {
    done();
    if (queues.get(key) === tail) queues.delete(key);
  };
  return { prev, first: before === undefined, finish };
}
