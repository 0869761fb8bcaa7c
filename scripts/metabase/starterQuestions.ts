/**
 * The starter dashboard's questions: native SQL over the `analytics` views (and the run log), each
 * choosing its own market and times, so that every one answers on any database this project has
 * filled, a few minutes of `npm run demo` or of the compose `demo` profile included.
 * test/metabase/starterQuestions.test.ts runs each against a synced database.
 */
export interface StarterQuestion {
  name: string;
  description: string;
  /** Metabase's visualization: table, bar, line, row or scalar. */
  display: 'table' | 'bar' | 'line' | 'row' | 'scalar';
  sql: string;
  /** For a chart: the columns on its x axis (dimensions) and y axis (metrics). */
  axes?: { dimensions: string[]; metrics: string[] };
  /** Size on the dashboard's 24-column grid. */
  width: number;
  height: number;
}

export const STARTER_QUESTIONS: readonly StarterQuestion[] = [
  {
    name: 'Markets by provider and status',
    description: 'Every market ever seen, counted by provider and current status (analytics.market_latest).',
    display: 'bar',
    sql: `select provider, status, count(*) as markets
from analytics.market_latest
group by provider, status
order by provider, status`,
    axes: { dimensions: ['provider', 'status'], metrics: ['markets'] },
    width: 12,
    height: 6,
  },
  {
    name: 'Data freshness per listing',
    description:
      'Per provider and category: events and markets seen, how many are open, and the last complete crawl (analytics.data_freshness).',
    display: 'table',
    sql: `select provider, category, events, markets, open_markets, last_complete_crawl_finished_at
from analytics.data_freshness
order by provider, category`,
    width: 12,
    height: 6,
  },
  {
    name: 'Busiest open markets: latest prices',
    description:
      'The open markets with the most price changes stored, with their latest YES mid and spread in USD (analytics.market_latest, analytics.price_history).',
    display: 'table',
    sql: `select m.market_id, m.title, m.provider, m.yes_mid_usd, m.yes_spread_usd, m.implied_yes_probability, h.price_changes
from analytics.market_latest m
join (select market_id, count(*) as price_changes from analytics.price_history group by market_id) h using (market_id)
where m.status = 'open'
order by h.price_changes desc, m.market_id
limit 20`,
    width: 24,
    height: 7,
  },
  {
    name: 'YES mid of the busiest market',
    description: 'The YES mid over time of the market with the most price changes stored (analytics.price_history).',
    display: 'line',
    sql: `with busiest as (
  select market_id from analytics.price_history
  group by market_id order by count(*) desc, market_id limit 1
)
select p.valid_from as at, p.yes_mid_usd
from analytics.price_history p join busiest using (market_id)
where p.yes_mid_usd is not null
order by p.valid_from`,
    axes: { dimensions: ['at'], metrics: ['yes_mid_usd'] },
    width: 12,
    height: 7,
  },
  {
    name: 'Order-book spread of the open markets',
    description: 'The latest book of each open market, counted by its spread in cents (analytics.orderbook_top).',
    display: 'bar',
    sql: `select t.spread_cents, count(*) as markets
from (select distinct on (market_id) market_id, spread_cents
      from analytics.orderbook_top where not is_null
      order by market_id, valid_from desc) t
join analytics.market_latest m using (market_id)
where m.status = 'open' and t.spread_cents is not null
group by t.spread_cents
order by t.spread_cents`,
    axes: { dimensions: ['spread_cents'], metrics: ['markets'] },
    width: 12,
    height: 7,
  },
  {
    name: 'Ingest runs in the last 24 hours',
    description: 'Runs per job and status since a day ago, with their requests and rows written (prediction.ingest_runs).',
    display: 'table',
    sql: `select job, status, count(*) as runs, sum(requests) as requests, sum(records_written) as records_written, max(started_at) as last_started_at
from prediction.ingest_runs
where started_at > now() - interval '24 hours'
group by job, status
order by job, status`,
    width: 24,
    height: 6,
  },
];
