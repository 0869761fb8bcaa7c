import { errorChain, MAX_CAUSE_DEPTH } from './errorChain.js';
import { sanitizeText } from './sanitizeText.js';

/** Bound of the whole message: it is printed on exit and stored in ingest_runs.error. */
export const MAX_ERROR_CHAIN_CHARS = 2000;
/** Bound of one error's part, so a huge upstream text early in the chain cannot hide the root cause. */
const MAX_PART_CHARS = 600;

/**
 * An error's message followed by its causes' messages, context first and root cause last, each
 * said once (a wrapper often repeats its cause's message): "Database migration failed: connect
 * ECONNREFUSED 127.0.0.1:5432".
 *
 * Messages may quote upstream text, so each part is cleaned by sanitizeText (no terminal escape,
 * control character, NUL or line break; bounded) and so is the whole: the result can be printed on
 * one line and stored in Postgres as is. An AggregateError without a message of its own (Node's
 * connection errors when a host name resolves to several addresses) says its errors' messages.
 */
export function errorChainMessage(error: unknown): string {
  const parts: string[] = [];
  for (const e of links(error)) {
    const message = sanitizeText(messageOf(e), MAX_PART_CHARS);
    if (message && !parts.some((p) => p.includes(message))) parts.push(message);
  }
  return sanitizeText(parts.join(': ') || 'unknown error', MAX_ERROR_CHAIN_CHARS);
}

/** The errors of the chain, then what ends it when that is no Error (a thrown string, say). */
function links(error: unknown): unknown[] {
  const errors: unknown[] = [...errorChain(error)];
  const last = errors.length === 0 ? error : (errors.at(-1) as Error).cause;
  const tail = last instanceof Error || last === undefined || last === null ? [] : [last];
  return [...errors, ...tail].slice(0, MAX_CAUSE_DEPTH);
}

function messageOf(e: unknown): string {
  if (!(e instanceof Error)) {
    try {
      return String(e);
    } catch {
      // An object without a usable toString (Object.create(null)).
      return '';
    }
  }
  if (e.message === '' && e instanceof AggregateError) {
    return e.errors.map((inner: unknown) => (inner instanceof Error ? inner.message : String(inner))).join(', ');
  }
  return e.message;
}
