import { is } from 'drizzle-orm';
import { getViewConfig, PgView } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';

import * as analytics from '../../src/schema/analytics.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { useDrizzle } from '../helpers/useDrizzle.js';
import { writeKnownDataset } from './knownDataset.js';

const db = await useTestDatabase();
const orm = useDrizzle(db.url);
const views = (Object.values(analytics) as unknown[]).filter((v): v is PgView => is(v, PgView));

describe('the views declared for drizzle (src/schema/analytics.ts)', () => {
  it('declare every analytics view', async () => {
    const rows = await db.sql<
      { name: string }[]
    >`select table_name as name from information_schema.views where table_schema = 'analytics' order by 1`;
    expect(views.map((v) => getViewConfig(v).name).sort()).toEqual(rows.map((r) => r.name));
  });

  it.each(views.map((v) => [getViewConfig(v).name, v] as const))(
    '%s declares the columns of the database view, in order',
    async (name, view) => {
      const rows = await db.sql<{ column_name: string }[]>`
      select column_name from information_schema.columns where table_schema = 'analytics' and table_name = ${name} order by ordinal_position`;
      expect(Object.values(getViewConfig(view).selectedFields).map((f) => (f as { name: string }).name)).toEqual(
        rows.map((r) => r.column_name),
      );
    },
  );

  it('reads through the ORM with typed values', async () => {
    await writeKnownDataset(db.sql);
    const rows = await orm.select().from(analytics.marketLatest).orderBy(analytics.marketLatest.marketId);
    expect(rows.map((r) => [r.marketId, r.status, r.yesMidUsd, r.quoteObservedAt?.toISOString()])).toEqual([
      ['M1', 'closed', '0.0150000', '2026-01-01T01:40:00.000Z'],
      ['M2', 'open', '0.2900000', '2026-01-01T00:00:00.000Z'],
      ['M3', 'open', '0.6450000', '2026-01-01T01:40:00.000Z'],
    ]);
  });
});
