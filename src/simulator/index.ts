/** Public surface of the simulator (tests and the `simulate` command import from here). */
export { startSimulator, type Simulator } from './startSimulator.js';
export type { SimulatorOptions, ClockMode } from './simulatorOptions.js';
export { World, DEFAULT_START_SEC, type WorldOptions, type AddEventOptions } from './world/world.js';
export type { StepReport } from './world/step.js';
export type { EventQuery, SortBy, SortDirection, ListFilter } from './world/listing.js';
export type { SimEvent, SimMarket, SimProvider, SimCategory, Outcome } from './world/simTypes.js';
export type * from './world/wireTypes.js';
export { Faults } from './faults/faults.js';
export { DRIFT_KINDS, DEFAULT_FAULTS, type DriftKind, type FaultSettings } from './faults/faultSettings.js';
export type { RateLimit } from './limits/slidingWindowLimiter.js';
export type { RequestRecord, RequestCounters, RequestOutcome } from './observe/requestLog.js';
export type { KeyState } from './limits/authenticate.js';
export { BASE_PATH } from './server/httpServer.js';
export { DEFAULT_SEARCH_LIMIT } from './server/eventRoutes.js';
export { TRENDING_WINDOW_SEC, NEW_WINDOW_SEC } from './world/wire.js';
