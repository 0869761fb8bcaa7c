import { LIMITS } from './limits.js';

/** The form of a payload too large to keep: the start of its JSON, and the bound it went over. */
export interface TruncatedPayload {
  truncated: true;
  /** Its JSON is longer than this many characters (how much longer was not measured). */
  overChars: number;
  head: string;
}

/**
 * A rejected record's payload in the form it may stay in memory: as it came when its JSON is at
 * most LIMITS.rejectedPayloadChars, else its head (the first quarter of that bound). Done where
 * the record is rejected, so a million-level book is dropped as soon as it has been judged
 * instead of waiting, whole, for the write that quarantines it; and only as much of it is walked
 * as the bound needs, so its size costs no time either.
 */
export function boundedPayload(payload: unknown): unknown {
  const maxChars = LIMITS.rejectedPayloadChars;
  let text: string | null;
  try {
    text = jsonUpTo(payload, maxChars);
  } catch {
    // Nested beyond what the stack allows (every level costs a character, so the bound ends the
    // walk first unless the stack is shallower still): nothing of it is kept.
    return { truncated: true, overChars: maxChars, head: '' } satisfies TruncatedPayload;
  }
  if (text === null) return payload;
  return { truncated: true, overChars: maxChars, head: copyOf(text.slice(0, maxChars / 4)) } satisfies TruncatedPayload;
}

/** Thrown inside jsonUpTo once the output passes its bound. */
const FULL = Symbol('full');

/**
 * null when the JSON of `value` (as JSON.stringify writes it) is at most `maxChars` long;
 * otherwise its first `maxChars` characters or more, found without serializing much past that.
 */
function jsonUpTo(value: unknown, maxChars: number): string | null {
  const parts: string[] = [];
  let length = 0;
  const emit = (s: string) => {
    parts.push(s);
    length += s.length;
    if (length > maxChars) throw FULL;
  };
  const write = (v: unknown): void => {
    if (v === null || typeof v !== 'object') {
      // A string longer than what is left is cut first: its escapes only make it longer.
      emit(typeof v === 'string' && v.length > maxChars ? JSON.stringify(v.slice(0, maxChars + 1)) : (JSON.stringify(v) ?? 'null'));
      return;
    }
    if (Array.isArray(v)) {
      emit('[');
      for (let i = 0; i < v.length; i++) {
        if (i > 0) emit(',');
        const item: unknown = v[i];
        write(item === undefined || typeof item === 'function' ? null : item);
      }
      emit(']');
      return;
    }
    emit('{');
    let first = true;
    for (const [key, item] of Object.entries(v)) {
      if (item === undefined || typeof item === 'function') continue;
      emit(`${first ? '' : ','}${JSON.stringify(key)}:`);
      first = false;
      write(item);
    }
    emit('}');
  };
  try {
    write(value);
    return null;
  } catch (error) {
    if (error !== FULL) throw error;
    return parts.join('');
  }
}

/**
 * A string that owns its characters. V8 makes a long `slice` a view into its parent: a head would
 * keep the whole of what it was cut from alive until the write.
 */
function copyOf(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}
