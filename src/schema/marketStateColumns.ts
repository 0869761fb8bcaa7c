import { text } from 'drizzle-orm/pg-core';

import { timestampTz } from './timestampTz.js';

// A market's state as the tables and views hold it: as received. An unfamiliar value (a status
// "cancelled", a result "void") or a missing one (null) is kept and tagged in `drift`, not
// rejected. Functions: each table or view needs column builders of its own.

/** Its status and result. */
export const marketOutcomeColumns = () => ({
  status: text('status'),
  result: text('result'),
});

/** Its trading times. */
export const marketTimeColumns = () => ({
  openTime: timestampTz('open_time'),
  closeTime: timestampTz('close_time'),
  settlementTime: timestampTz('settlement_time'),
});
