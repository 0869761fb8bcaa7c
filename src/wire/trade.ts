import { z } from 'zod';

import { expected } from './issues.js';
import { LIMITS } from './limits.js';
import { idString, label, PLAIN_DECIMAL, storableText, unixTime } from './primitives.js';

/**
 * A micro-USD amount of the trade feed: a decimal string ("4459073"), or a JSON number. A value
 * that is not a non-negative number cannot be stored as a price or an amount, so it rejects the
 * trade (its siblings are kept).
 */
const microUsd = z.union(
  [
    z.number().min(0),
    z
      .string()
      .max(LIMITS.decimalChars)
      .regex(PLAIN_DECIMAL, { error: expected('a non-negative decimal number') }),
  ],
  { error: expected('micro-USD as a non-negative number or decimal string') },
);

/**
 * One row of GET /trades (the service's OpenAPI of 2026-07-05, schema `Trades`). What the tables
 * need (id, market, time, price, amount) rejects the record when unreadable; `action` and `side`
 * are kept as received whatever they say (normalize tags an unknown one); the rest (titles, image,
 * `message`, `marketOptions`) is kept in `raw` only.
 */
export const tradeSchema = z.object({
  id: idString,
  marketId: idString,
  eventId: idString.nullish(),
  timestamp: unixTime,
  action: label,
  side: label,
  priceUsd: microUsd,
  amountUsd: microUsd,
  ownerPubkey: storableText.nullish(),
});

export type TradeWire = z.output<typeof tradeSchema>;
