-- analytics.candles of a market the database does not know returns no rows. It returned one bucket
-- per interval of the range, every one with null prices and no_observation: a mistyped id read as
-- a market that was never quoted. A market that is stored but has no quote in the range still gets
-- its buckets (null before its first quote, carried forward after), as before. The body is that
-- of 0011 with the check after the argument checks (so bad arguments are still refused first);
-- signature, columns and results are unchanged otherwise (CREATE OR REPLACE keeps the grants).
-- One statement per breakpoint.

CREATE OR REPLACE FUNCTION "analytics"."candles"(p_market_id text, p_interval interval, p_from timestamptz, p_to timestamptz)
RETURNS TABLE (
  bucket_start timestamptz,
  bucket_end timestamptz,
  open_yes_mid_usd numeric,
  high_yes_mid_usd numeric,
  low_yes_mid_usd numeric,
  close_yes_mid_usd numeric,
  avg_yes_spread_usd numeric,
  quote_changes integer,
  no_observation boolean
)
LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
#variable_conflict use_column
DECLARE
  origin CONSTANT timestamptz := '1970-01-01 00:00:00+00';
  step interval;
  first_start timestamptz;
  last_end timestamptz;
  max_buckets CONSTANT bigint := 100000;
  buckets bigint;
BEGIN
  IF p_interval IS NULL OR p_interval < interval '1 minute' OR p_interval > interval '1 day' THEN
    RAISE EXCEPTION 'analytics.candles: the interval must be between 1 minute and 1 day, got %', p_interval
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF p_from IS NULL OR p_to IS NULL OR p_from >= p_to THEN
    RAISE EXCEPTION 'analytics.candles: need p_from < p_to, got [%, %)', p_from, p_to
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- As a plain number of seconds: timestamptz + '1 day' follows the session time zone's calendar
  -- (23- or 25-hour days at DST changes); buckets must be a fixed length in UTC.
  step := make_interval(secs => extract(epoch FROM p_interval));
  first_start := date_bin(step, p_from, origin);
  last_end := date_bin(step, p_to - interval '1 microsecond', origin) + step;
  -- In epoch seconds (numeric, exact: both bounds are multiples of the step); a timestamptz
  -- difference could overflow an interval.
  buckets := ((extract(epoch FROM last_end) - extract(epoch FROM first_start)) / extract(epoch FROM step))::bigint;
  IF buckets > max_buckets THEN
    RAISE EXCEPTION 'analytics.candles: at most % buckets per call, got % (interval %, [%, %))',
        max_buckets, buckets, p_interval, p_from, p_to
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'Use a longer interval or a shorter time range, or page through the range.';
  END IF;
  -- By the distribution column on a Citus cluster: one shard is asked.
  IF NOT EXISTS (SELECT FROM prediction.markets m WHERE m.market_id = p_market_id) THEN
    RETURN;
  END IF;

  RETURN QUERY
  WITH fetched AS (
    -- Only the price columns: an index-only scan of the primary key (it includes the prices), where a
    -- market's snapshots sit together (in the heap they are spread one per page).
    SELECT h.valid_from,
           lead(h.valid_from) OVER (ORDER BY h.valid_from) AS next_from,
           row_number() OVER (ORDER BY h.valid_from) AS quote_rank,
           h.yes_mid_usd,
           h.yes_spread_usd
      FROM analytics.price_history h
     WHERE h.market_id = p_market_id
       AND h.valid_from < last_end
       -- from the quote in force at first_start on
       AND h.valid_from >= coalesce(
             (SELECT max(s.observed_at) FROM prediction.pricing_snapshots s
               WHERE s.market_id = p_market_id AND s.observed_at <= first_start),
             '-infinity')
  ),
  quotes AS (
    SELECT f.valid_from,
           coalesce(f.next_from, 'infinity') AS valid_to,
           date_bin(step, f.valid_from, origin) AS first_bucket,
           f.quote_rank,
           f.yes_mid_usd,
           f.yes_spread_usd,
           -- A bucket in which a quote was first observed was observed. A bucket in which no quote
           -- starts was observed if the poll that last confirmed the quote carried through it came
           -- at or after its start: only those quotes need last_observed_at, from the heap.
           CASE WHEN coalesce(f.next_from, 'infinity')
                     >= greatest(date_bin(step, f.valid_from, origin) + step, first_start) + step THEN
             (SELECT s.last_observed_at FROM prediction.pricing_snapshots s
               WHERE s.market_id = p_market_id AND s.observed_at = f.valid_from)
           END AS last_observed_at
      FROM fetched f
  ),
  pieces AS (
    -- A quote inside one bucket is one piece; one that crosses bucket edges is cut at each.
    SELECT q.first_bucket AS piece_bucket, q.valid_from AS piece_start, q.valid_to AS piece_end,
           q.valid_from, q.last_observed_at, q.quote_rank, q.yes_mid_usd, q.yes_spread_usd
      FROM quotes q
     WHERE q.valid_to <= q.first_bucket + step
    UNION ALL
    SELECT g.piece_bucket, greatest(q.valid_from, g.piece_bucket), least(q.valid_to, g.piece_bucket + step),
           q.valid_from, q.last_observed_at, q.quote_rank, q.yes_mid_usd, q.yes_spread_usd
      FROM quotes q
     CROSS JOIN LATERAL generate_series(
             greatest(q.first_bucket, first_start),
             least(q.valid_to, last_end) - interval '1 microsecond',
             step) AS g(piece_bucket)
     WHERE q.valid_to > q.first_bucket + step
  ),
  per_bucket AS (
    SELECT p.piece_bucket,
           -- The quote in force at the bucket start; else (the market's first quote came later in
           -- the bucket) that first quote.
           coalesce(max(p.yes_mid_usd) FILTER (WHERE p.piece_start = p.piece_bucket),
                    max(p.yes_mid_usd) FILTER (WHERE p.quote_rank = 1)) AS open_mid,
           max(p.yes_mid_usd) AS high_mid,
           min(p.yes_mid_usd) AS low_mid,
           -- Quotes are contiguous, so exactly one piece reaches the bucket's end.
           max(p.yes_mid_usd) FILTER (WHERE p.piece_end = p.piece_bucket + step) AS close_mid,
           -- float8 for the weighting (numeric products cost more than the rest of the query);
           -- rounded well below a micro-dollar.
           round((sum(p.yes_spread_usd::float8 * date_part('epoch', p.piece_end - p.piece_start))
                  / nullif(sum(date_part('epoch', p.piece_end - p.piece_start)) FILTER (WHERE p.yes_spread_usd IS NOT NULL), 0)
                 )::numeric, 10) AS avg_spread,
           (count(*) FILTER (WHERE p.valid_from >= p.piece_bucket))::integer AS changes,
           bool_or(p.valid_from >= p.piece_bucket OR p.last_observed_at >= p.piece_bucket) AS observed
      FROM pieces p
     GROUP BY p.piece_bucket
  )
  SELECT b.b_start,
         b.b_start + step,
         pb.open_mid,
         pb.high_mid,
         pb.low_mid,
         pb.close_mid,
         pb.avg_spread,
         coalesce(pb.changes, 0),
         NOT coalesce(pb.observed, false)
    FROM generate_series(first_start, last_end - step, step) AS b(b_start)
    LEFT JOIN per_bucket pb ON pb.piece_bucket = b.b_start
   ORDER BY b.b_start;
END
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "analytics"."candles"(text, interval, timestamptz, timestamptz) IS 'OHLC candles of one market''s YES mid price (USD) for any interval from 1 minute to 1 day. Buckets are aligned to multiples of the interval since 1970-01-01 UTC; every bucket overlapping [p_from, p_to) is returned, in time order, each computed over its full extent. Columns: bucket_start, bucket_end (exclusive); open_yes_mid_usd = mid in force at the bucket start (or of the market''s first quote, if that falls inside the bucket); high_yes_mid_usd / low_yes_mid_usd over all quotes in force during the bucket; close_yes_mid_usd = mid in force at its end (open and close are null when the quote in force then had no mid: a side missing, see analytics.price_history; high and low skip such quotes); avg_yes_spread_usd = YES spread averaged by time in force, over the quotes that have one, USD; quote_changes = new quotes first observed in the bucket; no_observation = true when no poll confirmed any quote during the bucket (a polling gap, or before the first / after the latest observation): its OHLC is then carried forward from the last known quote (null before the first quote). Change-only storage keeps the first and last confirmation of each quote only, so an outage while prices stood still is not flagged here: see analytics.data_coverage. A market not in prediction.markets gets no rows. At most 100,000 buckets per call (e.g. 69 days of 1-minute candles): a larger request is refused with an error.';
