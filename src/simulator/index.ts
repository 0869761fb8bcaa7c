/** Public surface of the simulator (tests and the `simulate` command import from here). */
export type { EventBody, MarketBody, OrderBookBody } from './shapes/renderBodies.js';
export type { ClockMode, SimulatorOptions } from './simulatorOptions.js';
export { type Simulator, startSimulator } from './startSimulator.js';
export { type AddEventOptions, DEFAULT_START_SEC, World, type WorldOptions } from './World.js';
export type { EventQuery, ListFilter, SortBy, SortDirection } from './world/listing.js';
export type { Outcome, SimCategory, SimEvent, SimEventCategory, SimMarket, SimProvider } from './world/simTypes.js';
export { UNDOCUMENTED_CATEGORIES, type UndocumentedCategory } from './world/simTypes.js';
export type { StepReport } from './world/step.js';
export type { SpecEraEvent } from './world/wire.js';
export { RECORD_SHAPES, type RecordShape, WIRE_SHAPES, type WireShape } from './world/wireShape.js';
// The shapes it sends are those of src/wire (one description of the wire), re-exported for its users.
export type { Market202602, Market202603, OrderBook202603 } from '../wire/legacyShapes.js';
export type { LiveEvent, LiveEventMetadata, LiveMarket, LiveMarketOption, LiveOrderBook, LivePricing } from '../wire/liveShapes.js';
export type { CentLevel, DollarLevel } from '../wire/orderBook.js';
export type { SpecEvent, SpecEventMetadata, SpecMarket, SpecMarketMetadata, SpecOrderBook, SpecPricing } from '../wire/specShapes.js';
export { Faults } from './faults/faults.js';
export type { ScheduledFaults } from './faults/faultSchedule.js';
export { DEFAULT_FAULTS, DRIFT_KINDS, type DriftKind, type FaultSettings, PAST_DRIFT_KINDS } from './faults/faultSettings.js';
export type { KeyState } from './limits/authenticate.js';
export type { RateLimit } from './limits/slidingWindowLimiter.js';
export type { RequestCounters, RequestOutcome, RequestRecord } from './observe/requestLog.js';
export { DEFAULT_SEARCH_LIMIT } from './server/eventRoutes.js';
export { BASE_PATH } from './server/httpServer.js';
export { NEW_WINDOW_SEC, TRENDING_WINDOW_SEC } from './world/wire.js';
