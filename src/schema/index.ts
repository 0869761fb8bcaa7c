export { predictionSchema } from './predictionSchema.js';
export { events } from './events.js';
export { markets } from './markets.js';
export { marketStateHistory, eventStateHistory } from './stateHistory.js';
export { pricingSnapshots } from './pricingSnapshots.js';
export { orderbookSnapshots, orderbookLevels } from './orderbook.js';
export { ingestRuns, rejectedRecords, crawlCoverage, upstreamShapes } from './ingest.js';
export { jobTicks, upstreamSources, jobLeases, writeLock } from './service.js';
export * from './analytics.js';
