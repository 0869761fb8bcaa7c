import type { Queryable } from './queryable.js';

/**
 * One answer per pool. postgres.js gives a pool and each of its transactions the same `typed`
 * object (the custom types of the pool's options): keyed on it, a transaction finds its pool's answer.
 */
const answers = new WeakMap<object, Promise<boolean>>();

/**
 * Whether the database has the Citus extension (docs/scaling.md), asked once per pool. The few
 * statements whose one-node shape Citus cannot plan (a lateral `LIMIT 1` from an `unnest`) pick
 * their shape by it, so one Postgres keeps the plan it was measured with. A database laid out
 * after a process started is seen by the next process (the layout is a step before the first sync).
 */
export function onCitus(sql: Queryable): Promise<boolean> {
  const key: object = sql.typed;
  let answer = answers.get(key);
  if (!answer) {
    answer = sql<{ citus: boolean }[]>`select exists (select 1 from pg_extension where extname = 'citus') as citus`.then(
      ([row]) => row?.citus === true,
    );
    // A failed question is asked again next time rather than cached.
    answer.catch(() => answers.delete(key));
    answers.set(key, answer);
  }
  return answer;
}
