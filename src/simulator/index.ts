/** Public surface of the simulator (tests and the `simulate` command import from here). */
export { startSimulator, type Simulator } from './startSimulator.js';
export type { SimulatorOptions, ClockMode } from './simulatorOptions.js';
export { World, DEFAULT_START_SEC, type WorldOptions, type AddEventOptions } from './World.js';
export type { StepReport } from './world/step.js';
export type { EventQuery, SortBy, SortDirection, ListFilter } from './world/listing.js';
export type { SimEvent, SimMarket, SimProvider, SimCategory, SimEventCategory, Outcome } from './world/simTypes.js';
export { UNDOCUMENTED_CATEGORIES, type UndocumentedCategory } from './world/simTypes.js';
export { WIRE_SHAPES, RECORD_SHAPES, type WireShape, type RecordShape } from './world/wireShape.js';
export type { EventBody, MarketBody, OrderBookBody } from './shapes/renderBodies.js';
export type { SpecEraEvent } from './world/wire.js';
// The shapes it sends are those of src/wire (one description of the wire), re-exported for its users.
export type { SpecEvent, SpecEventMetadata, SpecMarket, SpecMarketMetadata, SpecOrderBook, SpecPricing } from '../wire/specShapes.js';
export type { LiveEvent, LiveEventMetadata, LiveMarket, LiveMarketOption, LiveOrderBook, LivePricing } from '../wire/liveShapes.js';
export type { Market202602, Market202603, OrderBook202603 } from '../wire/legacyShapes.js';
export type { CentLevel, DollarLevel } from '../wire/orderBook.js';
export { Faults } from './faults/faults.js';
export { DRIFT_KINDS, DEFAULT_FAULTS, PAST_DRIFT_KINDS, type DriftKind, type FaultSettings } from './faults/faultSettings.js';
export type { RateLimit } from './limits/slidingWindowLimiter.js';
export type { RequestRecord, RequestCounters, RequestOutcome } from './observe/requestLog.js';
export type { KeyState } from './limits/authenticate.js';
export { BASE_PATH } from './server/httpServer.js';
export { DEFAULT_SEARCH_LIMIT } from './server/eventRoutes.js';
export { TRENDING_WINDOW_SEC, NEW_WINDOW_SEC } from './world/wire.js';
