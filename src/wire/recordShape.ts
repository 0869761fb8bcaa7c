import { createHash } from 'node:crypto';
import type { RecordShape } from '../domain/types.js';
import { LIMITS } from './limits.js';

/**
 * The shape of a record: the sorted set of its key paths with their JSON types
 * (`pricing.volume:number`, `tags[]:string`, `yes_dollars[][]:string`). Array items share one path,
 * so a 96-level book has the shape of a 3-level one. Two records with the same fields of the same
 * types have the same fingerprint whatever their values: a new fingerprint on an endpoint is a
 * change of the upstream's shape (analytics.upstream_drift).
 */

/** Shapes remembered per process; a flood of distinct shapes resets the memo instead of growing it. */
const MAX_MEMO = 1_000;
/** The example keeps this many items of each array: it illustrates the shape, whatever the record's size. */
const EXAMPLE_ITEMS = 3;

const memo = new Map<string, RecordShape>();

/**
 * The shape of a record that failed the hostile-content scan (too large, too deep, a NUL): it is
 * never walked, so that its size cannot cost us time or memory; the quarantine keeps its payload.
 */
export const HOSTILE_SHAPE: RecordShape = Object.freeze({
  fingerprint: 'hostile',
  paths: Object.freeze(['(not read: over the size limits, or holding text Postgres cannot store)']),
  example: null,
});

export function recordShape(record: unknown): RecordShape {
  const seen = new Set<string>();
  collect(record, '', seen, 0);
  // Insertion order is the sender's key order, stable for a given server: a cheap memo key.
  const signature = [...seen].join('\n');
  const known = memo.get(signature);
  if (known) return known;
  const paths = [...seen].sort();
  const shape: RecordShape = Object.freeze({
    fingerprint: createHash('sha256').update(paths.join('\n')).digest('hex').slice(0, 16),
    paths: Object.freeze(paths),
    example: truncated(record, 0),
  });
  if (memo.size >= MAX_MEMO) memo.clear();
  memo.set(signature, shape);
  return shape;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function collect(value: unknown, path: string, seen: Set<string>, depth: number): void {
  if (path !== '') seen.add(`${path}:${jsonType(value)}`);
  if (typeof value !== 'object' || value === null || depth >= LIMITS.depth) return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, `${path}[]`, seen, depth + 1);
    return;
  }
  for (const [key, item] of Object.entries(value)) collect(item, path === '' ? key : `${path}.${key}`, seen, depth + 1);
}

function truncated(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth >= LIMITS.depth) return value;
  if (Array.isArray(value)) return value.slice(0, EXAMPLE_ITEMS).map((item) => truncated(item, depth + 1));
  // fromEntries defines properties: a "__proto__" key stays a plain key.
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, truncated(v, depth + 1)]));
}
