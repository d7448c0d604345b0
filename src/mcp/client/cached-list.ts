/**
 * A list asked once per connection: concurrent callers share the one request in flight; a failed
 * one is forgotten (the next caller asks again); `drop` forgets it when the server says it changed.
 */
export class CachedList<T> {
  private pending: Promise<T[]> | undefined;

  get(fetch: () => Promise<T[]>): Promise<T[]> {
    if (this.pending) return this.pending;
    const pending = fetch();
    this.pending = pending;
    // Only this request is forgotten: one asked after a `drop` stays.
    pending.catch(() => {
      if (this.pending === pending) this.pending = undefined;
    });
    return pending;
  }

  drop(): void {
    this.pending = undefined;
  }
}
