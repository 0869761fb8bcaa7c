import { sanitizeText } from '../../errors/sanitizeText.js';
import { withoutCredentials } from '../../net/withoutCredentials.js';
import { upstreamSources } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { type RowOf, selection, sqlNames } from '../core/sqlNames.js';

const { table: sources, col: c } = sqlNames(upstreamSources);
const API_URL = selection(upstreamSources, ['apiUrl']);

export class UpstreamMismatchError extends Error {
  override name = 'UpstreamMismatchError';
  constructor(
    message: string,
    /** The upstream the database holds data from, as shown in the message. */
    readonly heldUpstream: string,
  ) {
    super(message);
  }
}

/** How the demo's simulated upstream is recorded in upstream_sources: its port changes every run, it is one upstream all the same. */
export const DEMO_UPSTREAM_ID = 'simulator (npm run demo)';

/** Bound of an upstream URL quoted in the mismatch message. */
const MAX_SHOWN_URL_CHARS = 300;

/**
 * Records that `apiUrl` fills this database. Refuses (UpstreamMismatchError) when the database
 * already holds data from another upstream, unless `allowChange`: mixing two sources silently
 * would corrupt every history in it.
 *
 * `user:password@` is stripped before the URL is compared, stored or printed: upstream_sources is
 * readable by prediction_reader, and the mismatch message is printed. The config refuses
 * such a URL already; this holds for any caller, and for a row an older version stored with them.
 */
export async function recordUpstream(sql: Queryable, apiUrl: string, options: { allowChange: boolean; now: Date }): Promise<void> {
  const url = withoutCredentials(apiUrl);
  const others = await sql<RowOf<typeof API_URL>[]>`
    select ${sql.unsafe(API_URL.text)} from ${sql(sources)} where ${sql(c.apiUrl)} <> ${url} order by ${sql(c.lastUsedAt)} desc limit 1`;
  if (others.length > 0 && !options.allowChange) {
    const shown = (u: string) => sanitizeText(withoutCredentials(u), MAX_SHOWN_URL_CHARS);
    const held = shown(others[0]!.apiUrl);
    // The demo's data is simulated: mixing real data into it is never meant, so the flag is not offered.
    const advice =
      held === DEMO_UPSTREAM_ID
        ? "This is the demo's simulated data: use another database for real data (another DATA_DIR, or DATABASE_URL), or remove the demo's (drop the database, or its DATA_DIR while nothing runs on it)"
        : 'Use another database, or pass --allow-upstream-change to mix them deliberately';
    throw new UpstreamMismatchError(`This database holds data from ${held}, not from PREDICTION_API_URL=${shown(url)}. ${advice}`, held);
  }
  await sql`
    insert into ${sql(sources)} (${sql(c.apiUrl)}, ${sql(c.firstUsedAt)}, ${sql(c.lastUsedAt)})
    values (${url}, ${options.now}::timestamptz, ${options.now}::timestamptz)
    on conflict (${sql(c.apiUrl)}) do update set ${sql(c.lastUsedAt)} = excluded.${sql(c.lastUsedAt)}`;
}
