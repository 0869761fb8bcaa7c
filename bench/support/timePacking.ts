import { connectPacker } from '../../src/partitions/connectPacker.js';
import { packClosedPartitions, type PackedPartition } from '../../src/partitions/packClosedPartitions.js';
import { type PartitionedSize, partitionedSize } from './partitionedSize.js';
import { onClone, type ScratchDb } from './scratchDb.js';

export interface Packing {
  packed: PackedPartition[];
  /** packClosedPartitions over every closed month, one REINDEX CONCURRENTLY after another. */
  seconds: number;
  /** Making the copy it ran on. */
  cloneSeconds: number;
  /** The tables' sizes once packed. */
  books: PartitionedSize;
  pricing: PartitionedSize;
}

/**
 * Packs every closed month (packClosedPartitions, as the crawl does one partition at a time,
 * through a pool of the maintenance role) on a file copy of `template`, dropped afterwards, and
 * measures the tables then: the template stays as the pipeline wrote it. The template must have no
 * open connection.
 */
export async function timePacking(serverUrl: string, template: ScratchDb, now: Date): Promise<Packing> {
  const { result, cloneSeconds } = await onClone(serverUrl, template, 'packed', async (clone) => {
    const db = connectPacker(clone.url);
    try {
      const started = performance.now();
      const { packed, postponed } = await packClosedPartitions(db.sql, { now, limit: 10_000 });
      const seconds = (performance.now() - started) / 1000;
      if (postponed !== null) throw new Error(`packing postponed: ${postponed}`);
      const books = await partitionedSize(db.sql, 'prediction.orderbook_snapshots');
      const pricing = await partitionedSize(db.sql, 'prediction.pricing_snapshots');
      return { packed, seconds, books, pricing };
    } finally {
      await db.close();
    }
  });
  return { ...result, cloneSeconds };
}
