import type { PredictionClientOptions } from '../api/client/PredictionClientOptions.js';

// Apart from createClientFromConfig.ts, which loads the client: `plan` replays the same limit.

/** The client's rate limit for a plan of `rpm` requests per minute (`plan` replays the same). */
export const planRateLimit = (rpm: number): NonNullable<PredictionClientOptions['rateLimit']> => ({ requests: rpm, windowMs: 60_000 });
