/** The API client's public surface. */
export {
  createPredictionClient,
  type PredictionClient,
  type EventList,
  type ClosedEventList,
  type MarketList,
} from './createPredictionClient.js';
export type { PredictionClientOptions, ClientLogger } from './PredictionClientOptions.js';
export type { ClientStats } from './ClientStats.js';
export type { RequestEvent } from './RequestEvent.js';
export { RequestTally } from './RequestTally.js';
export { planAboveServer, type ServerWindowSnapshot } from './ServerWindow.js';
export type { Page, PageOptions } from './paginate.js';
export * from '../errors.js';
export type {
  ListEventsParams,
  GetEventParams,
  ProviderParams,
  SearchEventsParams,
  ListEventMarketsParams,
  ClosedEventsParams,
  EventCategoriesParams,
} from '../endpoints/requests.js';
