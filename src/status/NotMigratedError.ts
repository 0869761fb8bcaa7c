import { HOW_TO_GET_DATA } from '../domain/howToGetData.js';

/** SQLSTATEs of a statement naming a relation or column the database lacks: its schema is older than this code's. */
const MISSING = new Set(['42P01', '42703', '3F000']);

/** The database lacks what `status` reads: it was never migrated, or by an older version. */
export class NotMigratedError extends Error {
  override name = 'NotMigratedError';

  /**
   * The error to throw instead of `error` when `error` is a missing table, view, column or schema;
   * else undefined. `bare`: the database has no `prediction` schema at all, so nothing ever ran
   * against it (it is no older version's).
   */
  static from(error: unknown, bare: boolean): NotMigratedError | undefined {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code !== 'string' || !MISSING.has(code)) return undefined;
    const message = bare
      ? `the database holds no data: nothing has run against it yet; ${HOW_TO_GET_DATA}`
      : 'the database lacks the tables and views status reads: it has not been migrated by this version (run `migrate`, or start the service)';
    return new NotMigratedError(message, { cause: error });
  }
}
