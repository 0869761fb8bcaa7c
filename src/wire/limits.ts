/**
 * Bounds on untrusted input. The spec sets none; these keep absurd payloads out of memory, out of
 * Postgres and out of the quarantine, far above anything the real service sends.
 */
export const LIMITS = {
  /** eventId, marketId, series, winner, provider, object keys. */
  idChars: 256,
  /** Titles, descriptions, rules and any other string (UTF-16 code units, i.e. ~64 KiB). */
  textChars: 64 * 1024,
  /** A decimal sent as a string; 100 digits is far past any amount and still cheap to canonicalize. */
  decimalChars: 100,
  levelsPerSide: 10_000,
  marketsPerEvent: 10_000,
  /** Records in one list response (the service pages by 20). */
  recordsPerPage: 10_000,
  /** Any array inside a record, known field or not. */
  arrayItems: 10_000,
  keysPerObject: 1_000,
  /** Nesting depth inside a record; also stops a cyclic object from recursing forever. */
  depth: 32,
  /**
   * A rejected record's payload kept in memory, as JSON characters; a larger one is reduced at once
   * to its head (a quarter of this), as the quarantine would store it anyway (its own bound is the
   * same): the whole is neither kept until the write nor walked further than this.
   */
  rejectedPayloadChars: 256 * 1024,
  /** 9999-12-31T23:59:59Z: fits JS Date and Postgres timestamptz, and rejects millisecond timestamps. */
  maxUnixSec: 253_402_300_799,
} as const;
