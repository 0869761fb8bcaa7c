import { describe, expect, it } from 'vitest';

import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();

/** Metabase and psql show these descriptions; an undocumented table, view or column is a bug. */
describe('catalog documentation', () => {
  it('has a comment on every table, view and composite type of prediction and analytics', async () => {
    const rows = await db.sql<{ name: string }[]>`
      select format('%s.%s (%s)', n.nspname, c.relname, c.relkind) as name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname in ('prediction', 'analytics') and c.relkind in ('r', 'p', 'v', 'm', 'f', 'c')
        and coalesce(obj_description(c.oid, 'pg_class'), obj_description(c.reltype, 'pg_type')) is null
      order by 1`;
    expect(rows.map((r) => r.name)).toEqual([]);
  });

  it('has a comment on every column of them', async () => {
    const rows = await db.sql<{ name: string }[]>`
      select format('%s.%s.%s', n.nspname, c.relname, a.attname) as name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname in ('prediction', 'analytics') and c.relkind in ('r', 'p', 'v', 'm', 'f', 'c')
        and col_description(c.oid, a.attnum) is null
      order by 1`;
    expect(rows.map((r) => r.name)).toEqual([]);
  });

  it('has a comment on every analytics function', async () => {
    const rows = await db.sql<{ name: string }[]>`
      select p.oid::regprocedure::text as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'analytics' and obj_description(p.oid, 'pg_proc') is null order by 1`;
    expect(rows.map((r) => r.name)).toEqual([]);
  });

  it('covers a meaningful set of objects (the queries above are not vacuous)', async () => {
    const [row] = await db.sql`
      select count(*) filter (where n.nspname = 'analytics' and c.relkind = 'v')::int as views,
             count(*) filter (where n.nspname = 'prediction' and c.relkind = 'r')::int as tables
      from pg_class c join pg_namespace n on n.oid = c.relnamespace`;
    expect(row!.views).toBeGreaterThanOrEqual(7);
    expect(row!.tables).toBeGreaterThanOrEqual(10);
  });
});
