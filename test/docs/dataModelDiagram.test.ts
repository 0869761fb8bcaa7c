import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { DATA_MODEL_SVG } from '../../scripts/docs/dataModelDiagram.js';
import { readCatalog } from '../../scripts/docs/readCatalog.js';
import { renderDataModel } from '../../scripts/docs/renderDataModel.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

/** docs/data-model.svg is drawn from the migrations: a migration that changes the model must redraw it. */
const db = await useTestDatabase();

describe('the data-model picture', () => {
  it('reads each analytics view’s tables from the catalog, and each function’s from its body', async () => {
    const catalog = await readCatalog(db.sql);
    const byId = new Map(catalog.map((o) => [o.id, o]));
    expect(byId.get('prediction.markets')).toMatchObject({ kind: 'table', keyColumns: ['market_id'] });
    expect(byId.get('prediction.pricing_snapshots')?.keyColumns).toEqual(['market_id', 'observed_at']);
    expect(byId.get('analytics.price_history')).toMatchObject({ kind: 'view', reads: ['prediction.pricing_snapshots'] });
    expect(byId.get('analytics.candles()')?.reads).toContain('analytics.price_history');
    expect(byId.get('prediction.orderbook_levels')?.reads).toEqual(['prediction.orderbook_snapshots']);
  });

  it('docs/data-model.svg is what the migrations draw now (redraw: npm run docs:pictures)', async () => {
    const drawn = renderDataModel(await readCatalog(db.sql));
    expect(readFileSync(DATA_MODEL_SVG, 'utf8')).toBe(drawn);
  });
});
