import { pgSchema } from 'drizzle-orm/pg-core';

/** Everything the pipeline writes lives in this Postgres schema; analysts read it (and `analytics`). */
export const predictionSchema = pgSchema('prediction');
