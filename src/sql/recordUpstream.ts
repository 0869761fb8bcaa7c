import type { Queryable } from './queryable.js';

export class UpstreamMismatchError extends Error {
  override name = 'UpstreamMismatchError';
}

/**
 * Records that `apiUrl` fills this database. Refuses (UpstreamMismatchError) when the database
 * already holds data from another upstream, unless `allowChange`: mixing two sources silently
 * would corrupt every history in it.
 */
export async function recordUpstream(sql: Queryable, apiUrl: string, options: { allowChange: boolean; now: Date }): Promise<void> {
  const others = await sql<{ api_url: string }[]>`
    select api_url from prediction.upstream_sources where api_url <> ${apiUrl} order by last_used_at desc limit 1`;
  if (others.length > 0 && !options.allowChange) {
    throw new UpstreamMismatchError(
      `This database holds data from ${others[0]!.api_url}, not from PREDICTION_API_URL=${apiUrl}. ` +
        'Use another database, or pass --allow-upstream-change to mix them deliberately',
    );
  }
  await sql`
    insert into prediction.upstream_sources (api_url, first_used_at, last_used_at)
    values (${apiUrl}, ${options.now}::timestamptz, ${options.now}::timestamptz)
    on conflict (api_url) do update set last_used_at = excluded.last_used_at`;
}
