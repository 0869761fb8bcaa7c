import type postgres from 'postgres';

import { settingsOf } from './openPool.js';
import { withDeadline } from './withDeadline.js';

/**
 * `work` (a read of one or a few statements on `sql`) under the pool's statement deadline
 * (SessionSettings.statementDeadlineMs), rejecting with a DatabaseDeadlineError past it. The pool's
 * answer watchdog (watchAnswers) sees nothing over TLS: this bound holds there too, so that a
 * frozen connection fails the run instead of holding its job, and its renewed lease, for good.
 */
export function withStatementDeadline<T>(sql: postgres.Sql, operation: string, work: () => Promise<T>): Promise<T> {
  return withDeadline(operation, settingsOf(sql).statementDeadlineMs, () => work());
}
