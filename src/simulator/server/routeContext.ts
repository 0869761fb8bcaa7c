/** What a route handler gets: the world, the parsed query and the current serving settings. */
import type { Faults } from '../faults/faults.js';
import type { ShapeContext } from '../faults/shapeRecords.js';
import type { World } from '../World.js';
import type { QueryParams } from './queryParams.js';

export interface RouteContext {
  world: World;
  query: QueryParams;
  /** Path identifiers, decoded, in path order. */
  params: string[];
  maxPageSize: number;
  /** Cap on a GET /events page asked for by `limit`. */
  maxLimit: number;
  /** Record-level faults (malformed, drift, null books), applied on top of the shape profile. */
  recordFaults: ShapeContext;
  faults: Faults;
}

/** Returns the JSON body of a 200 (possibly null), or throws an HttpError. */
export type RouteHandler = (ctx: RouteContext) => unknown;
