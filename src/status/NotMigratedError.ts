/** SQLSTATEs of a statement naming a relation or column the database lacks: its schema is older than this code's. */
const MISSING = new Set(['42P01', '42703', '3F000']);

/** The database lacks what `status` reads: it was never migrated, or by an older version. */
export class NotMigratedError extends Error {
  override name = 'NotMigratedError';

  /** The error to throw instead of `error` when `error` is a missing table, view, column or schema; else undefined. */
  static from(error: unknown): NotMigratedError | undefined {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code !== 'string' || !MISSING.has(code)) return undefined;
    return new NotMigratedError(
      'the database lacks the tables and views status reads: it has not been migrated by this version (run `migrate`, or start the service)',
      { cause: error },
    );
  }
}
