// What a long-lived owner has in flight right now (a queue's rows at work, a sender's requests),
// in an array. Members come and go all day; there are a few dozen at most, so a linear search is
// cheaper than it sounds.
//
// Why not a Set or a Map: V8 rehashes their table each time it grows or shrinks, and leaves the
// old table linked to the new one (for iterators). The table of a Set that lives for the whole run
// is in the old generation, and so is every table rehashed from it. A dead one still holds the
// members it held, and, until the next full collection, keeps them and everything they reach
// through every young collection: each member's request, buffers and closures end up promoted, as
// garbage only a full collection frees. An array's slots are simply overwritten.
export class InFlightList<T> implements Iterable<T> {
  private readonly items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  add(item: T): void {
    this.items.push(item);
  }

  has(item: T): boolean {
    return this.items.includes(item);
  }

  find(test: (item: T) => boolean): T | undefined {
    return this.items.find(test);
  }

  /** Whether the item was there. */
  delete(item: T): boolean {
    const at = this.items.indexOf(item);
    if (at < 0) return false;
    this.items.splice(at, 1);
    return true;
  }

  clear(): void {
    this.items.length = 0;
  }

  /** Over a copy: what the loop's body adds or deletes does not change the loop. */
  [Symbol.iterator](): Iterator<T> {
    return [...this.items][Symbol.iterator]();
  }
}
