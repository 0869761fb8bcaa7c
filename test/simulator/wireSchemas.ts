/**
 * What the simulator sends with no fault on is described once, in src/wire (specShapes,
 * legacyShapes, liveShapes, errorBodies). Only its own choice on top of the spec's shapes is here:
 * it always sends the `metadata` and `pricing` the spec makes optional.
 */
import { z } from 'zod';

import { specEventSchema, specMarketSchema } from '../../src/wire/specShapes.js';

export const simulatedSpecMarketSchema = specMarketSchema.required({ metadata: true, pricing: true });

export const simulatedSpecEventSchema = specEventSchema.required({ metadata: true }).extend({
  markets: z.array(simulatedSpecMarketSchema).optional(),
});
