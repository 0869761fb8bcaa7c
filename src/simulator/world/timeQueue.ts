/**
 * A min-heap of scheduled happenings (a market closes, a market settles), so a step touches only
 * what is due instead of scanning every market. Ties pop in insertion order, for determinism.
 */
export interface Scheduled<K extends string> {
  atSec: number;
  kind: K;
  id: string;
}

interface Entry<K extends string> extends Scheduled<K> {
  seq: number;
}

export class TimeQueue<K extends string> {
  private readonly heap: Entry<K>[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(item: Scheduled<K>): void {
    this.heap.push({ ...item, seq: this.seq++ });
    this.up(this.heap.length - 1);
  }

  /** Removes and returns the earliest item due at or before `untilSec`, if any. */
  popDue(untilSec: number): Scheduled<K> | undefined {
    const top = this.heap[0];
    if (!top || top.atSec > untilSec) return undefined;
    const last = this.heap.pop()!;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    return { atSec: top.atSec, kind: top.kind, id: top.id };
  }

  private less(a: Entry<K>, b: Entry<K>): boolean {
    return a.atSec < b.atSec || (a.atSec === b.atSec && a.seq < b.seq);
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < h.length && this.less(h[l]!, h[min]!)) min = l;
      if (r < h.length && this.less(h[r]!, h[min]!)) min = r;
      if (min === i) return;
      [h[i], h[min]] = [h[min]!, h[i]!];
      i = min;
    }
  }
}
