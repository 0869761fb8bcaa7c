import type { z } from 'zod';

import type { ContractChange } from '../domain/types.js';
import {
  liveBisonfiMarketSchema,
  liveEventSchema,
  liveGxMarketSchema,
  liveMarketSchema,
  liveOrderBookSchema,
  livePricingSchema,
  liveTradeSchema,
} from './liveShapes.js';

/**
 * Today's contract: what the live service sends (liveShapes.ts), as the key paths of each record
 * kind with their JSON types, whether each may be absent, and the values of its closed lists. A
 * record's drift is measured against it, not against the February spec: a record as the service
 * sends it today has no drift, whatever the spec said; a spec-era record differs from it. A null is
 * never a difference (a field that is sometimes null is one shape), and neither is a value outside
 * a format (a too-long id, a price above $1): the reader judges values, the contract judges shape.
 */
export type ContractKind = 'event' | 'market' | 'pricing' | 'orderBook' | 'trade';

/**
 * The schemas of each kind. A kind with several shapes today (markets by provider) lists each: a
 * path is then in the contract when any of them has it, and required when all of them require it.
 */
const CONTRACT_SCHEMAS: Readonly<Record<ContractKind, readonly z.ZodType[]>> = {
  event: [liveEventSchema],
  market: [liveMarketSchema, liveBisonfiMarketSchema, liveGxMarketSchema],
  pricing: [livePricingSchema],
  orderBook: [liveOrderBookSchema.nullable()],
  trade: [liveTradeSchema],
};

/** Any JSON type (a `z.unknown()` in the contract): nothing under it is a change. */
const ANY = '*';

interface PathRule {
  /** JSON types the contract allows here ('null' aside: a null is always allowed). */
  types: Set<string>;
  /** The closed list of values, or null when any value of the types is allowed. */
  values: Set<string> | null;
  /** May be absent from its parent object. */
  optional: boolean;
}

interface Contract {
  /** By key path; '' is the record itself. */
  rules: Map<string, PathRule>;
  /** Per object path, its required keys' paths: what a record lacking them has lost. */
  required: Map<string, string[]>;
  /** Paths whose values are checked against a list, with the JSON types the list holds (a value of another type is a changed type, not a new value). */
  listed: Map<string, Set<string>>;
}

const contracts = new Map<ContractKind, Contract>();

export function contractOf(kind: ContractKind): Contract {
  let contract = contracts.get(kind);
  if (!contract) contracts.set(kind, (contract = buildContract(CONTRACT_SCHEMAS[kind])));
  return contract;
}

/** The JSON type of a value as RecordShape names it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** A value of a listed path as the key of its list (JSON text: "open", 3, true). */
export const listedValue = (value: unknown): string => JSON.stringify(value);

/**
 * The structural changes of a record against the contract, from its key paths and their types
 * (`types`: path -> JSON types seen there; array items share one path). Values are not looked at:
 * see valueChanges.
 */
export function structuralChanges(contract: Contract, rootType: string, types: ReadonlyMap<string, ReadonlySet<string>>): ContractChange[] {
  const changes: ContractChange[] = [];
  const root = contract.rules.get('')!;
  if (rootType !== 'null' && !root.types.has(ANY) && !root.types.has(rootType)) {
    return [{ kind: 'changed_type', path: '', detail: `${typeList(root.types)} -> ${rootType}` }];
  }
  // Below a new field or a changed type, every path is part of that one change.
  const reported: string[] = [];
  const under = (path: string) => reported.some((p) => path.startsWith(`${p}.`) || path.startsWith(`${p}[]`));
  for (const path of [...types.keys()].sort()) {
    if (under(path) || underAny(contract, path)) continue;
    const seen = types.get(path)!;
    const rule = contract.rules.get(path);
    if (!rule) {
      changes.push({ kind: 'new_field', path, detail: [...seen].sort().join('|') });
      reported.push(path);
      continue;
    }
    if (rule.types.has(ANY)) continue;
    const other = [...seen].filter((t) => t !== 'null' && !rule.types.has(t)).sort();
    if (other.length > 0) {
      changes.push({ kind: 'changed_type', path, detail: `${typeList(rule.types)} -> ${other.join('|')}` });
      reported.push(path);
    }
  }
  for (const [parent, keys] of contract.required) {
    const parentTypes = parent === '' ? new Set([rootType]) : types.get(parent);
    if (!parentTypes?.has('object') || under(parent) || reported.includes(parent)) continue;
    for (const key of keys) {
      if (!types.has(key)) changes.push({ kind: 'field_gone', path: key, detail: typeList(contract.rules.get(key)!.types) });
    }
  }
  return changes;
}

/** At most this many new values are named per path and record: a list turned free text is one change, not thousands. */
const MAX_NEW_VALUES = 3;

/** The values of listed paths that the contract's list lacks (`values`: path -> listedValue keys seen there). */
export function valueChanges(contract: Contract, values: ReadonlyMap<string, ReadonlySet<string>>): ContractChange[] {
  const changes: ContractChange[] = [];
  for (const [path, seen] of values) {
    const allowed = contract.rules.get(path)?.values;
    if (!allowed) continue;
    let named = 0;
    for (const value of seen) {
      if (allowed.has(value) || named >= MAX_NEW_VALUES) continue;
      changes.push({ kind: 'new_value', path, detail: value });
      named += 1;
    }
  }
  return changes;
}

/** A path below a `z.unknown()` of the contract (a book's levels are read one by one elsewhere). */
function underAny(contract: Contract, path: string): boolean {
  for (let cut = path.length; cut > 0; cut--) {
    const c = path[cut];
    if (c !== '.' && c !== '[') continue;
    if (contract.rules.get(path.slice(0, cut))?.types.has(ANY)) return true;
  }
  return false;
}

const typeList = (types: ReadonlySet<string>): string =>
  [...types]
    .filter((t) => t !== 'null')
    .sort()
    .join('|') || 'null';

function buildContract(schemas: readonly z.ZodType[]): Contract {
  const variants = schemas.map((schema) => {
    const rules = new Map<string, PathRule>();
    describe(schema, '', rules, false);
    return rules;
  });
  const rules = variants.reduce((merged, next) => mergeVariants(merged, next));
  const required = new Map<string, string[]>();
  const listed = new Map<string, Set<string>>();
  for (const [path, rule] of rules) {
    if (rule.values) listed.set(path, rule.types);
    if (path === '' || rule.optional) continue;
    const parent = parentOf(path);
    if (parent === null) continue;
    required.set(parent, [...(required.get(parent) ?? []), path]);
  }
  return { rules, required, listed };
}

/** The object path a key path belongs to; null for an array item (`tags[]`), which may be absent in an empty array. */
function parentOf(path: string): string | null {
  if (path.endsWith('[]')) return null;
  const dot = path.lastIndexOf('.');
  return dot === -1 ? '' : path.slice(0, dot);
}

/** Two shapes of one kind: a path of either is allowed; a key only one of them has may be absent. */
function mergeVariants(a: Map<string, PathRule>, b: Map<string, PathRule>): Map<string, PathRule> {
  const merged = new Map<string, PathRule>();
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(path);
    const y = b.get(path);
    if (!x || !y) {
      merged.set(path, { ...(x ?? y)!, optional: true });
      continue;
    }
    merged.set(path, mergeRule(x, y));
  }
  return merged;
}

function mergeRule(x: PathRule, y: PathRule): PathRule {
  return {
    types: new Set([...x.types, ...y.types]),
    values: x.values && y.values ? new Set([...x.values, ...y.values]) : null,
    optional: x.optional || y.optional,
  };
}

/** The zod internals read here are those of zod 4 (`_zod.def`), the version the wire schemas are written in. */
interface Def {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  in?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

function describe(schema: z.ZodType, path: string, rules: Map<string, PathRule>, optional: boolean): void {
  const def = defOf(schema);
  const add = (type: string, values: unknown[] | null = null) => {
    const rule: PathRule = { types: new Set([type]), values: values ? new Set(values.map(listedValue)) : null, optional };
    const known = rules.get(path);
    rules.set(path, known ? mergeRule(known, rule) : rule);
  };
  switch (def.type) {
    case 'optional':
      return describe(def.innerType!, path, rules, true);
    case 'nullable':
    case 'default':
    case 'readonly':
      return describe(def.innerType!, path, rules, optional);
    case 'pipe':
      return describe(def.in!, path, rules, optional);
    case 'union':
      for (const option of def.options!) describe(option, path, rules, optional);
      return;
    case 'object':
      add('object');
      for (const [key, child] of Object.entries(def.shape!)) describe(child, path === '' ? key : `${path}.${key}`, rules, false);
      return;
    case 'array':
      add('array');
      return describe(def.element!, `${path}[]`, rules, false);
    case 'tuple':
      add('array');
      for (const item of [...def.items!, ...(def.rest ? [def.rest] : [])]) describe(item, `${path}[]`, rules, false);
      return;
    case 'enum':
      return add('string', Object.values(def.entries!));
    case 'literal':
      for (const value of def.values!) add(jsonType(value), [value]);
      return;
    case 'null':
      return add('null');
    case 'string':
    case 'number':
    case 'boolean':
      return add(def.type);
    case 'int':
      return add('number');
    case 'unknown':
    case 'any':
      return add(ANY);
    default:
      throw new Error(`liveContract: the contract cannot describe a zod ${def.type} at ${path === '' ? 'the record' : path}`);
  }
}
