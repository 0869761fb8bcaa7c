/**
 * Shape profiles: which upstream version the simulator's JSON looks like. The spec is one dated
 * version of a service that has moved since (docs/upstream/live-service.md), so a client must
 * read today's shapes, the spec's, and the ones in between.
 */
import { hash32 } from './prng.js';

/**
 * 'live': what the live service sends today (the default of startSimulator).
 * 'spec': the spec's shapes, exactly as the simulator sent them before profiles existed.
 * 'mixed': each record in one of RECORD_SHAPES, picked by a hash of the seed and its id.
 */
export const WIRE_SHAPES = ['live', 'spec', 'mixed'] as const;
export type WireShape = (typeof WIRE_SHAPES)[number];

/**
 * The shape of one record, by the upstream version it comes from: the spec; the 2026-02 doc
 * example (flat market, prices as strings); the 2026-03 doc example (nested market metadata);
 * today's live service.
 */
export const RECORD_SHAPES = ['spec', '2026-02', '2026-03', 'live'] as const;
export type RecordShape = (typeof RECORD_SHAPES)[number];

export function validateWireShape(name: string, value: unknown): WireShape {
  if (!(WIRE_SHAPES as readonly unknown[]).includes(value)) {
    throw new RangeError(`${name} must be one of ${WIRE_SHAPES.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as WireShape;
}

/** The shape one record (event, market, or a market's book) is sent in. */
export function recordShapeOf(shape: WireShape, seed: number, id: string): RecordShape {
  if (shape !== 'mixed') return shape;
  return RECORD_SHAPES[hash32(seed, 'record-shape', id) % RECORD_SHAPES.length]!;
}

/**
 * Whatever is not per record (undocumented categories in the world, the includeMarkets default,
 * search and suggested envelopes) follows the live service unless the profile is 'spec'.
 */
export function followsLiveService(shape: WireShape): boolean {
  return shape !== 'spec';
}
