import { createHash } from 'node:crypto';

import type { ContractChange, RecordShape } from '../domain/types.js';
import { LIMITS } from './limits.js';
import { type ContractKind, contractOf, jsonType, listedValue, structuralChanges, valueChanges } from './liveContract.js';

/**
 * The shape of a record: the sorted set of its key paths with their JSON types
 * (`pricing.volume:number`, `tags[]:string`, `yes_dollars[][]:string`), and how it differs from
 * today's contract (liveContract.ts). Array items share one path, so a 96-level book has the shape
 * of a 3-level one. The fingerprint is that of the differences: every record the service sends as
 * it does today shares one fingerprint, nulls or not, and each distinct change of the service is
 * one new fingerprint on its endpoint (analytics.upstream_drift).
 */

/** Shapes remembered per process; a flood of distinct shapes resets the memo instead of growing it. */
const MAX_MEMO = 1_000;
/** The example keeps this many items of each array: it illustrates the shape, whatever the record's size. */
const EXAMPLE_ITEMS = 3;

interface Structure {
  paths: readonly string[];
  changes: readonly ContractChange[];
  /** The shape of its records that hold no new value: the common case, found without a second key. */
  plain?: RecordShape;
}

/** Per contract and path signature: the sorted paths and the structural changes, which depend on nothing else. */
const structures = new Map<string, Structure>();
/** Per structure and new values: the shape object records of that shape share. */
const shapes = new Map<string, RecordShape>();

/**
 * The shape of a record that failed the hostile-content scan (too large, too deep, a NUL): it is
 * never walked, so that its size cannot cost us time or memory; the quarantine keeps its payload.
 */
export const HOSTILE_SHAPE: RecordShape = Object.freeze({
  fingerprint: 'hostile',
  paths: Object.freeze(['(not read: over the size limits, or holding text Postgres cannot store)']),
  example: null,
  changes: Object.freeze([]),
});

export function recordShape(record: unknown, kind: ContractKind): RecordShape {
  const contract = contractOf(kind);
  const seen = new Set<string>();
  const values = new Map<string, Set<string>>();
  collect(record, '', seen, values, contract.listed, 0);
  // Insertion order is the sender's key order, stable for a given server: a cheap memo key.
  const rootType = jsonType(record);
  const signature = `${kind}\n${rootType}\n${[...seen].join('\n')}`;
  let structure = structures.get(signature);
  if (!structure) {
    const types = new Map<string, Set<string>>();
    for (const entry of seen) {
      const cut = entry.lastIndexOf(':');
      const path = entry.slice(0, cut);
      const type = entry.slice(cut + 1);
      const at = types.get(path);
      if (at) at.add(type);
      else types.set(path, new Set([type]));
    }
    structure = { paths: Object.freeze([...seen].sort()), changes: structuralChanges(contract, rootType, types) };
    if (structures.size >= MAX_MEMO) structures.clear();
    structures.set(signature, structure);
  }
  const newValues = values.size === 0 ? [] : valueChanges(contract, values);
  if (newValues.length === 0 && structure.plain) return structure.plain;
  const key = `${signature}\u0001${newValues.map(changeKey).join('\n')}`;
  const known = newValues.length === 0 ? undefined : shapes.get(key);
  if (known) return known;
  const changes = Object.freeze([...structure.changes, ...newValues].sort((a, b) => compare(changeKey(a), changeKey(b))));
  const shape: RecordShape = Object.freeze({
    fingerprint: createHash('sha256')
      .update(`${kind}\n${changes.map(changeKey).join('\n')}`)
      .digest('hex')
      .slice(0, 16),
    paths: structure.paths,
    example: truncated(record, 0),
    changes,
  });
  if (newValues.length === 0) {
    structure.plain = shape;
    return shape;
  }
  if (shapes.size >= MAX_MEMO) shapes.clear();
  shapes.set(key, shape);
  return shape;
}

const changeKey = (c: ContractChange): string => `${c.kind} ${c.path} ${c.detail}`;
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function collect(
  value: unknown,
  path: string,
  seen: Set<string>,
  values: Map<string, Set<string>>,
  listed: ReadonlyMap<string, ReadonlySet<string>>,
  depth: number,
): void {
  if (path !== '') {
    const type = jsonType(value);
    seen.add(`${path}:${type}`);
    if (value !== null && listed.get(path)?.has(type)) {
      const at = values.get(path);
      if (at) at.add(listedValue(value));
      else values.set(path, new Set([listedValue(value)]));
    }
  }
  if (typeof value !== 'object' || value === null || depth >= LIMITS.depth) return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, `${path}[]`, seen, values, listed, depth + 1);
    return;
  }
  for (const [key, item] of Object.entries(value)) collect(item, path === '' ? key : `${path}.${key}`, seen, values, listed, depth + 1);
}

function truncated(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth >= LIMITS.depth) return value;
  if (Array.isArray(value)) return value.slice(0, EXAMPLE_ITEMS).map((item) => truncated(item, depth + 1));
  // fromEntries defines properties: a "__proto__" key stays a plain key.
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, truncated(v, depth + 1)]));
}
