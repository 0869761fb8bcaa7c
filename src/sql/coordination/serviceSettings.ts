import { serviceSettings } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table, col: c } = sqlNames(serviceSettings);

/** The settings a service runs with, as prediction.service_settings keeps them. */
export interface ServiceSettings {
  instanceId: string;
  /** When the service started (database clock). */
  startedAt: Date;
  /** Each job's cron schedule, by the service's job names. */
  schedules: Record<'crawl' | 'details' | 'orderbooks' | 'trades', string>;
  orderBookMaxAgeSec: number;
  /** Null when the service ran without a plan's rate. */
  rateLimitRpm: number | null;
}

/** Stores the settings of a service that starts, over those of the one before (one row; the database's clock). */
export async function recordServiceSettings(sql: Queryable, settings: Omit<ServiceSettings, 'startedAt'>): Promise<void> {
  const { schedules: s } = settings;
  await sql`
    insert into ${sql(table)} (${sql(c.singleton)}, ${sql(c.instanceId)}, ${sql(c.startedAt)}, ${sql(c.crawlSchedule)},
      ${sql(c.tradesSchedule)}, ${sql(c.detailsSchedule)}, ${sql(c.orderBookSchedule)}, ${sql(c.orderBookMaxAgeSec)}, ${sql(c.rateLimitRpm)})
    values (true, ${settings.instanceId}, now(), ${s.crawl}, ${s.trades}, ${s.details}, ${s.orderbooks},
      ${settings.orderBookMaxAgeSec}, ${settings.rateLimitRpm})
    on conflict (${sql(c.singleton)}) do update set
      ${sql(c.instanceId)} = excluded.${sql(c.instanceId)}, ${sql(c.startedAt)} = excluded.${sql(c.startedAt)},
      ${sql(c.crawlSchedule)} = excluded.${sql(c.crawlSchedule)}, ${sql(c.tradesSchedule)} = excluded.${sql(c.tradesSchedule)},
      ${sql(c.detailsSchedule)} = excluded.${sql(c.detailsSchedule)}, ${sql(c.orderBookSchedule)} = excluded.${sql(c.orderBookSchedule)},
      ${sql(c.orderBookMaxAgeSec)} = excluded.${sql(c.orderBookMaxAgeSec)}, ${sql(c.rateLimitRpm)} = excluded.${sql(c.rateLimitRpm)}`;
}

/** The settings of the latest service to start, or null when none stored them (none ran, or one of an older version). */
export async function selectServiceSettings(sql: Queryable): Promise<ServiceSettings | null> {
  const [row] = await sql<
    {
      instanceId: string;
      startedAt: Date;
      crawl: string;
      trades: string;
      details: string;
      orderbooks: string;
      orderBookMaxAgeSec: number;
      rateLimitRpm: number | null;
    }[]
  >`
    select ${sql(c.instanceId)} as "instanceId", ${sql(c.startedAt)} as "startedAt", ${sql(c.crawlSchedule)} as crawl,
      ${sql(c.tradesSchedule)} as trades, ${sql(c.detailsSchedule)} as details, ${sql(c.orderBookSchedule)} as orderbooks,
      ${sql(c.orderBookMaxAgeSec)} as "orderBookMaxAgeSec", ${sql(c.rateLimitRpm)} as "rateLimitRpm"
    from ${sql(table)}`;
  if (row === undefined) return null;
  const { crawl, trades, details, orderbooks, ...rest } = row;
  return { ...rest, schedules: { crawl, trades, details, orderbooks } };
}
