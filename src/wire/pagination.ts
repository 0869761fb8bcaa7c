import { z } from 'zod';

/** All four keys required: without them paging cannot continue safely. */
export const paginationSchema = z.object({
  start: z.int().min(0),
  end: z.int().min(0),
  total: z.int().min(0),
  hasNext: z.boolean(),
});

export type PaginationWire = z.output<typeof paginationSchema>;
