/** The API client's public surface. */
export type {
  ClosedEventsParams,
  EventCategoriesParams,
  GetEventParams,
  ListEventMarketsParams,
  ListEventsParams,
  ProviderParams,
  SearchEventsParams,
} from '../endpoints/requests.js';
export * from '../errors.js';
export type { ClientStats } from './ClientStats.js';
export {
  type ClosedEventList,
  createPredictionClient,
  type EventList,
  type MarketList,
  type PredictionClient,
} from './createPredictionClient.js';
export type { Page, PageOptions } from './paginate.js';
export type { ClientLogger, PredictionClientOptions } from './PredictionClientOptions.js';
export type { RequestEvent } from './RequestEvent.js';
export { RequestTally } from './RequestTally.js';
export { planAboveServer, type ServerWindowSnapshot } from './ServerWindow.js';
