import {
  AMOUNT_FRACTION_DIGITS,
  AMOUNT_INTEGER_DIGITS,
  type Checked,
  type DriftTag,
  type RecordShape,
  type Trade,
  TRADE_ACTIONS,
  TRADE_SIDES,
} from '../domain/types.js';
import type { TradeWire } from '../wire/trade.js';
import { fitsAmount, toDecimal } from './decimal.js';
import { DRIFT } from './driftTags.js';

/**
 * A validated row of the trade feed as a domain trade: amounts as exact decimals, the unknown
 * tagged. A price or amount past the stored amounts' bound (what the export's DECIMAL(38, 18)
 * holds) cannot be stored soundly: the trade is rejected. Pure.
 */
export function normalizeTrade(wire: TradeWire, ctx: { raw: unknown; shape: RecordShape }): Checked<Trade> {
  const price = toDecimal(wire.priceUsd);
  const amount = toDecimal(wire.amountUsd);
  const unfit = !fitsAmount(price) ? 'priceUsd' : !fitsAmount(amount) ? 'amountUsd' : null;
  if (unfit !== null) {
    const reason = `${unfit}: must be below 10^${AMOUNT_INTEGER_DIGITS} with at most ${AMOUNT_FRACTION_DIGITS} decimals, got ${String(wire[unfit])}`;
    return { ok: false, rejection: { entityId: wire.id, reason, payload: ctx.raw, shape: ctx.shape } };
  }
  const drift: DriftTag[] = [];
  if (!(TRADE_ACTIONS as readonly string[]).includes(wire.action)) drift.push(DRIFT.tradeActionUnknown);
  if (!(TRADE_SIDES as readonly string[]).includes(wire.side)) drift.push(DRIFT.tradeSideUnknown);
  if (typeof wire.priceUsd === 'number' || typeof wire.amountUsd === 'number') drift.push(DRIFT.tradeAmountAsNumber);
  const trade: Trade = {
    tradeId: wire.id,
    marketId: wire.marketId,
    eventId: wire.eventId ?? null,
    tradedAtSec: Number(wire.timestamp),
    action: wire.action,
    side: wire.side,
    priceMicroUsd: price,
    amountMicroUsd: amount,
    ownerPubkey: wire.ownerPubkey ?? null,
    drift,
    raw: ctx.raw,
    shape: ctx.shape,
  };
  return { ok: true, value: trade };
}
