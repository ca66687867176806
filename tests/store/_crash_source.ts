/** Revision i of the crash test, whether the worker stored it by put or by an edit of revision i - 1. */
export function crashSource(i: number): string {
  const body = "body line\n".repeat((i % 3 === 2 ? i - 1 : i) % 5);
  return `revision ${i}\n${body}`;
}
