import type { RunTotals } from '../../src/sql/core/ingestRuns.js';

/**
 * The totals of a run whose requests all went to /events and were answered 200, and whose written
 * records were all markets; `overrides` sets the rest.
 */
export function runTotals(
  figures: Pick<RunTotals, 'requests' | 'recordsSeen' | 'recordsWritten' | 'recordsRejected'>,
  overrides: Partial<RunTotals> = {},
): RunTotals {
  return {
    ...figures,
    requestsByStatus: { '/events': { '200': figures.requests } },
    rowsByTable: { markets: figures.recordsWritten },
    recordsByEndpoint: {},
    ...overrides,
  };
}
