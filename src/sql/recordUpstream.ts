import { withoutCredentials } from '../config.js';
import { sanitizeText } from '../errors/sanitizeText.js';
import type { Queryable } from './queryable.js';

export class UpstreamMismatchError extends Error {
  override name = 'UpstreamMismatchError';
}

/** Bound of an upstream URL quoted in the mismatch message. */
const MAX_SHOWN_URL_CHARS = 300;

/**
 * Records that `apiUrl` fills this database. Refuses (UpstreamMismatchError) when the database
 * already holds data from another upstream, unless `allowChange`: mixing two sources silently
 * would corrupt every history in it.
 *
 * `user:password@` is stripped before the URL is compared, stored or printed: upstream_sources is
 * readable by prediction_reader, and the mismatch message is printed (issue 11). The config refuses
 * such a URL already; this holds for any caller, and for a row an older version stored with them.
 */
export async function recordUpstream(sql: Queryable, apiUrl: string, options: { allowChange: boolean; now: Date }): Promise<void> {
  const url = withoutCredentials(apiUrl);
  const others = await sql<{ api_url: string }[]>`
    select api_url from prediction.upstream_sources where api_url <> ${url} order by last_used_at desc limit 1`;
  if (others.length > 0 && !options.allowChange) {
    const shown = (u: string) => sanitizeText(withoutCredentials(u), MAX_SHOWN_URL_CHARS);
    throw new UpstreamMismatchError(
      `This database holds data from ${shown(others[0]!.api_url)}, not from PREDICTION_API_URL=${shown(url)}. ` +
        'Use another database, or pass --allow-upstream-change to mix them deliberately',
    );
  }
  await sql`
    insert into prediction.upstream_sources (api_url, first_used_at, last_used_at)
    values (${url}, ${options.now}::timestamptz, ${options.now}::timestamptz)
    on conflict (api_url) do update set last_used_at = excluded.last_used_at`;
}
