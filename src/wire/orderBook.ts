import { z } from 'zod';
import { LIMITS } from './limits.js';
import { nonNegativeNumber } from './primitives.js';

/** [price_cents, size]: exactly two finite numbers; cents may be fractional (99.9), sizes too. */
export const orderBookLevelSchema = z.tuple([z.number().min(0).max(100), nonNegativeNumber]);

/**
 * One side. The spec sorts levels by price descending; later versions sent them ascending (drift,
 * reversed by normalize). Anything else, including a repeated price, is rejected: the order is part
 * of the contract and one row per (side, price) is what gets stored.
 */
export const orderBookSideSchema = z
  .array(orderBookLevelSchema)
  .max(LIMITS.levelsPerSide)
  .superRefine((levels, ctx) => {
    let direction = 0;
    for (let i = 1; i < levels.length; i++) {
      const step = Math.sign((levels[i - 1]?.[0] ?? NaN) - (levels[i]?.[0] ?? NaN));
      if (Number.isNaN(step)) return;
      if (step === 0) {
        ctx.addIssue({ code: 'custom', path: [i, 0], message: `repeats price ${levels[i]?.[0]}`, input: levels[i] });
        return;
      }
      if (direction === 0) direction = step;
      else if (step !== direction) {
        ctx.addIssue({ code: 'custom', path: [i, 0], message: 'levels are not sorted by price', input: levels[i] });
        return;
      }
    }
  });

/**
 * Spec 2.7: the body is an object or null. `yes_dollars`/`no_dollars` (later versions, decimal-dollar
 * strings) duplicate the cent levels: they are only bounded and noted, `raw` keeps them.
 */
export const orderBookSchema = z
  .object({
    yes: orderBookSideSchema,
    no: orderBookSideSchema,
    yes_dollars: z.array(z.unknown()).max(LIMITS.levelsPerSide).nullish(),
    no_dollars: z.array(z.unknown()).max(LIMITS.levelsPerSide).nullish(),
  })
  .nullable();

export type OrderBookWire = z.output<typeof orderBookSchema>;
export type OrderBookLevelWire = z.output<typeof orderBookLevelSchema>;
