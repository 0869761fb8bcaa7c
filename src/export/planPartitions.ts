import type { DayCount } from './ExportTable.js';

/** A day partition as the last export recorded it (prediction.export_partitions). */
export interface RecordedPartition {
  day: string;
  rows: number;
  /** 0 when the day had no rows and so no file. */
  fileBytes: number;
  minAt: string | null;
  maxAt: string | null;
}

/** UTC days [fromDay, toDay) (YYYY-MM-DD); null: unbounded on that side. */
export interface DayRange {
  fromDay: string | null;
  toDay: string | null;
}

export interface PartitionPlan {
  /** Days to (re)write, ascending, with the rows the database holds for each. */
  write: DayCount[];
  /**
   * Recorded days whose files go: days of the range the database holds no row of any more, and
   * days whose file is gone and cannot be written again here (out of the range, or dropped by
   * retention): their entries leave the manifest.
   */
  remove: string[];
  /** Recorded days of the range that retention dropped from the database: their files stay. */
  archived: string[];
  /** Recorded days of the range left as they are. */
  unchanged: string[];
}

export const inDayRange = (day: string, range: DayRange): boolean =>
  (range.fromDay === null || day >= range.fromDay) && (range.toDay === null || day < range.toDay);

/**
 * Which day partitions of a table to rewrite. A day is rewritten whole when one of its rows may have
 * changed since the last export (DayCount.changed), when no export recorded it, or when it does not
 * look like what was recorded: its file missing or of another size (a hand edit), or another number
 * of rows in the database (rows deleted by hand: the pipeline deletes history only by retention's
 * whole months, which is what lets an export stopped half-way be completed from the changes alone).
 * With `carryForward`, a change also rewrites every later day. A recorded day the database no
 * longer holds loses its file, unless it lies before `archivedBefore` (retention's horizon): the
 * export keeps what retention dropped, as long as its file is there. Everything else stays as it
 * is.
 */
export function planPartitions(input: {
  current: readonly DayCount[];
  recorded: ReadonlyMap<string, RecordedPartition>;
  /** Size of the day's file on disk, 0 when there is none. */
  fileBytes: (day: string) => number;
  range: DayRange;
  carryForward: boolean;
  /** YYYY-MM-DD: days before it that the database no longer holds were dropped by retention; null: none was. */
  archivedBefore: string | null;
}): PartitionPlan {
  const plan: PartitionPlan = { write: [], remove: [], unchanged: [], archived: [] };
  const present = new Set<string>();
  let carried = false;
  for (const day of [...input.current].sort((a, b) => (a.day < b.day ? -1 : 1))) {
    present.add(day.day);
    // Only a change of data carries: a day merely never exported changes nothing after it.
    carried ||= input.carryForward && day.changed;
    if (!inDayRange(day.day, input.range)) continue;
    const recorded = input.recorded.get(day.day);
    const intact = recorded !== undefined && recorded.fileBytes === input.fileBytes(day.day) && recorded.rows === day.rows;
    if (day.changed || carried || !intact) plan.write.push(day);
    else plan.unchanged.push(day.day);
  }
  for (const [day, recorded] of input.recorded) {
    if (present.has(day)) continue;
    // A file gone (deleted by hand, or by an export stopped before it recorded the removal) that the
    // export cannot write again here, out of the range or dropped by retention, leaves the
    // manifest, which lists only files present; a later export whose range holds the day writes it
    // again if the database still has its rows. A file that is there but of another size is kept:
    // an export stopped between its renames and its record leaves newer files than their records,
    // and a month retention dropped has no other copy.
    const gone = recorded.fileBytes > 0 && input.fileBytes(day) === 0;
    if (!inDayRange(day, input.range)) {
      if (gone) plan.remove.push(day);
    } else if (input.archivedBefore !== null && day < input.archivedBefore && !gone) plan.archived.push(day);
    else plan.remove.push(day);
  }
  plan.remove.sort();
  plan.archived.sort();
  return plan;
}
