import { z } from 'zod';

/** What every version sends, all four keys required: without them paging cannot continue safely. */
const paginationFields = {
  start: z.int().min(0),
  end: z.int().min(0),
  total: z.int().min(0),
  hasNext: z.boolean(),
};

/** The reader: the four keys, anything else beside them ignored. */
export const paginationSchema = z.object(paginationFields);

/** Exactly the four keys, as every version has sent them (what the simulator must send). */
export const exactPaginationSchema = z.strictObject(paginationFields);

export type PaginationWire = z.output<typeof paginationSchema>;
