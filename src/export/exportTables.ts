import { dataCoverageTable } from './coverageTable.js';
import { eventsTable, marketResolutionsTable, marketsTable } from './entityTables.js';
import type { ExportTable } from './ExportTable.js';
import { marketStateHistoryTable, orderbookLevelsTable, orderbookTopTable, priceHistoryTable } from './historyTables.js';
import { tradesTable } from './tradesTable.js';

/** Every table `export` can write, in the order it writes them. */
export const EXPORT_TABLES: readonly ExportTable[] = [
  marketsTable,
  eventsTable,
  marketStateHistoryTable,
  priceHistoryTable,
  orderbookTopTable,
  orderbookLevelsTable,
  tradesTable,
  marketResolutionsTable,
  dataCoverageTable,
];

/** Shorter names --tables accepts beside the tables' own. */
export const TABLE_ALIASES: Readonly<Record<string, string>> = { levels: orderbookLevelsTable.name };

/** What --tables accepts. */
export const TABLE_CHOICES: readonly string[] = [...EXPORT_TABLES.map((t) => t.name), ...Object.keys(TABLE_ALIASES)];

/** The tables of a --tables list (names or aliases, already checked against TABLE_CHOICES), or the default set. */
export function selectTables(names: readonly string[] | undefined): ExportTable[] {
  if (names === undefined) return EXPORT_TABLES.filter((t) => !t.optional);
  const wanted = new Set(names.map((n) => TABLE_ALIASES[n] ?? n));
  return EXPORT_TABLES.filter((t) => wanted.has(t.name));
}
