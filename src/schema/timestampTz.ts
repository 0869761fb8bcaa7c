import { timestamp } from 'drizzle-orm/pg-core';

/**
 * A timestamptz column, read as a Date: how both schemas store every time, as an instant (never a
 * wall-clock time without its zone).
 */
export const timestampTz = <N extends string>(name: N) => timestamp(name, { withTimezone: true, mode: 'date' });
