import type { Command } from 'commander';

import type { PredictionClient } from '../../api/client/index.js';
import {
  type ClosedEventsParams,
  closedEventsRequest,
  eventCategoriesRequest,
  getEventRequest,
  getMarketRequest,
  getOrderBookRequest,
  listEventMarketsRequest,
  type ListEventsParams,
  listEventsRequest,
  searchEventsRequest,
  suggestedEventsRequest,
} from '../../api/endpoints/requests.js';
import type { Config } from '../../config.js';
import { providerRefusedError } from '../cliError.js';
import { numeric, providerName } from '../optionParsers.js';

/**
 * The exploration commands (`events`, `event <id>`, `markets <eventId>`, `market <id>`,
 * `orderbook <id>`, `search <query>`, `suggested <pubkey>`): one request to the API, its
 * normalized result (valid records and rejections alike) printed as JSON; nothing is stored. Values are handed to the client as given: it checks them
 * against the spec's bounds and refuses before sending, and that refusal exits with code 2.
 */
export function registerExplore(program: Command, deps: { getConfig: () => Readonly<Config> }): void {
  /**
   * Checks the request against the spec's bounds (`validate` builds it, throwing on a violation),
   * then runs `call` with a client built from the configuration, prints its result, closes the
   * client. Validating first means a bad argument is reported as such even without a key.
   */
  const run = async (validate: () => unknown, call: (client: PredictionClient) => Promise<unknown>, provider?: string): Promise<void> => {
    validate();
    // The client (undici, the rate-limited queue) is loaded only when a request is to be sent.
    const { createClientFromConfig } = await import('../../app/createClientFromConfig.js');
    const client = createClientFromConfig(deps.getConfig());
    try {
      process.stdout.write(`${JSON.stringify(await call(client), null, 2)}\n`);
    } catch (error) {
      throw (provider === undefined ? undefined : providerRefusedError(error, `--provider ${JSON.stringify(provider)}`)) ?? error;
    } finally {
      await client.close();
    }
  };

  program
    .command('events')
    .description('GET /events: one page of events')
    .option('--provider <provider>', 'kalshi or polymarket (server default: polymarket)', providerName)
    .option('--category <category>', 'all, crypto, sports, politics, esports, culture, economics or tech')
    .option('--subcategory <subcategory>', 'subcategory filter, passed as given')
    .option('--start <n>', 'zero-based index of the first event', numeric)
    .option('--end <n>', 'index after the last event', numeric)
    .option('--limit <n>', 'events in the page, 1 to 100 (ignored by the service with --end; its default: 20)', numeric)
    .option('--include-markets', "embed each event's markets")
    .option('--include-all-markets', 'every sports market type (spread, totals), not only moneyline')
    .option('--sort-by <field>', 'volume or beginAt')
    .option('--sort-direction <direction>', 'asc or desc')
    .option('--filter <filter>', 'new, live, trending or upcoming')
    .action(async (opts: Record<string, string | number | boolean | undefined>) => {
      const params = {
        provider: opts.provider,
        category: opts.category,
        subcategory: opts.subcategory,
        start: opts.start,
        end: opts.end,
        limit: opts.limit,
        includeMarkets: opts.includeMarkets === true ? true : undefined,
        includeAllMarkets: opts.includeAllMarkets === true ? true : undefined,
        sortBy: opts.sortBy,
        sortDirection: opts.sortDirection,
        filter: opts.filter,
      } as ListEventsParams;
      await run(
        () => listEventsRequest(params),
        (client) => client.listEvents(params),
        params.provider,
      );
    });

  program
    .command('closed')
    .description('GET /events/closed: one page of the events that ended or changed since a time')
    .option('--provider <provider>', 'kalshi, polymarket or bisonfi (server default: polymarket)', providerName)
    .option('--since <unix seconds>', 'events updated after it (server default: the last 24 hours)', numeric)
    .option('--start <n>', 'zero-based index of the first event', numeric)
    .option('--end <n>', 'index after the last event', numeric)
    .action(async (opts: ClosedEventsParams) => {
      const params: ClosedEventsParams = { provider: opts.provider, since: opts.since, start: opts.start, end: opts.end };
      await run(
        () => closedEventsRequest(params),
        (client) => client.listClosedEvents(params),
        params.provider,
      );
    });

  program
    .command('categories')
    .description("GET /events/categories: the provider's event counts per category and subcategory")
    .option('--provider <provider>', 'kalshi, polymarket or bisonfi (server default: polymarket)', providerName)
    .option('--include-closed', 'count ended events too')
    .action(async (opts: { provider?: string; includeClosed?: boolean }) => {
      const params = { provider: opts.provider, includeClosed: opts.includeClosed === true ? true : undefined };
      await run(
        () => eventCategoriesRequest(params),
        (client) => client.getEventCategories(params),
        params.provider,
      );
    });

  program
    .command('event <eventId>')
    .description('GET /events/{eventId}: one event')
    .option('--include-markets', "embed the event's markets")
    .option('--include-all-markets', 'every sports market type (spread, totals), not only moneyline')
    .action(async (eventId: string, opts: { includeMarkets?: boolean; includeAllMarkets?: boolean }) => {
      const params = {
        includeMarkets: opts.includeMarkets === true ? true : undefined,
        includeAllMarkets: opts.includeAllMarkets === true ? true : undefined,
      };
      await run(
        () => getEventRequest(eventId, params),
        (client) => client.getEvent(eventId, params),
      );
    });

  program
    .command('markets <eventId>')
    .description("GET /events/{eventId}/markets: one page of an event's markets")
    .option('--start <n>', 'zero-based index of the first market', numeric)
    .option('--end <n>', 'index after the last market', numeric)
    .action(async (eventId: string, params: { start?: number; end?: number }) => {
      await run(
        () => listEventMarketsRequest(eventId, params),
        (client) => client.listEventMarkets(eventId, params),
      );
    });

  program
    .command('market <marketId>')
    .description('GET /markets/{marketId}: one market')
    .action(async (marketId: string) => {
      await run(
        () => getMarketRequest(marketId),
        (client) => client.getMarket(marketId),
      );
    });

  program
    .command('orderbook <marketId>')
    .description('GET /orderbook/{marketId}: the order book of a market')
    .action(async (marketId: string) => {
      await run(
        () => getOrderBookRequest(marketId),
        (client) => client.getOrderBook(marketId),
      );
    });

  program
    .command('search <query>')
    .description('GET /events/search: events whose title matches (query of 1 to 200 characters)')
    .option('--limit <n>', 'at most this many events, 1 to 20', numeric)
    .option('--provider <provider>', 'kalshi or polymarket (server default: polymarket)', providerName)
    .action(async (query: string, opts: { limit?: number; provider?: string }) => {
      const params = { limit: opts.limit, provider: opts.provider } as Parameters<PredictionClient['searchEvents']>[1];
      await run(
        () => searchEventsRequest(query, params),
        (client) => client.searchEvents(query, params),
        opts.provider,
      );
    });

  program
    .command('suggested <pubkey>')
    .description('GET /events/suggested/{pubkey}: events suggested from an order public key')
    .option('--provider <provider>', 'kalshi or polymarket (server default: polymarket)', providerName)
    .action(async (pubkey: string, opts: { provider?: string }) => {
      const params = { provider: opts.provider } as Parameters<PredictionClient['getSuggestedEvents']>[1];
      await run(
        () => suggestedEventsRequest(pubkey, params),
        (client) => client.getSuggestedEvents(pubkey, params),
        opts.provider,
      );
    });
}
