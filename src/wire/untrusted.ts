import type { PathMessage } from './issues.js';
import { LIMITS } from './limits.js';

/**
 * Scans a whole record, including fields no schema declares: those still reach the `raw` jsonb
 * column, and Postgres can hold neither a NUL (text or jsonb) nor an unpaired surrogate. Also bounds sizes and depth so
 * a hostile record is rejected before any further work.
 * Returns the first problem found, or null.
 */
export function findHostileContent(value: unknown): PathMessage | null {
  const path: PropertyKey[] = [];
  const found = visit(value, path, 0);
  return found === null ? null : { path: found.path, message: found.message };
}

function problem(path: PropertyKey[], message: string): PathMessage {
  return { path: [...path], message };
}

/** ES2024 (Node 20 has it; the project's lib setting stops at ES2023). */
type MaybeWellFormed = string & { isWellFormed(): boolean };

function checkString(text: string, path: PropertyKey[]): PathMessage | null {
  if (text.length > LIMITS.textChars) return problem(path, `too long: ${text.length} characters (max ${LIMITS.textChars})`);
  if (text.includes('\u0000')) return problem(path, 'contains a NUL character');
  // A lone surrogate has no UTF-8 form: Postgres json/jsonb refuses its \uD800-style escape.
  if (!(text as MaybeWellFormed).isWellFormed()) return problem(path, 'contains an unpaired UTF-16 surrogate');
  return null;
}

function visit(value: unknown, path: PropertyKey[], depth: number): PathMessage | null {
  if (typeof value === 'string') return checkString(value, path);
  if (typeof value !== 'object' || value === null) return null;
  if (depth >= LIMITS.depth) return problem(path, `nested deeper than ${LIMITS.depth} levels`);
  if (Array.isArray(value)) {
    if (value.length > LIMITS.arrayItems) return problem(path, `too many items: ${value.length} (max ${LIMITS.arrayItems})`);
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      const found = visit(value[i], path, depth + 1);
      path.pop();
      if (found !== null) return found;
    }
    return null;
  }
  const keys = Object.keys(value);
  if (keys.length > LIMITS.keysPerObject) return problem(path, `too many keys: ${keys.length} (max ${LIMITS.keysPerObject})`);
  const record = value as Record<string, unknown>;
  for (const key of keys) {
    path.push(key);
    const found =
      key.length > LIMITS.idChars
        ? problem(path, `key too long: ${key.length} characters (max ${LIMITS.idChars})`)
        : key.includes('\u0000')
          ? problem(path, 'key contains a NUL character')
          : visit(record[key], path, depth + 1);
    path.pop();
    if (found !== null) return found;
  }
  return null;
}
