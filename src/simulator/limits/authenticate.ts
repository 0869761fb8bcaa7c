/** x-api-key check. Keys are compared in constant time and never stored or logged. */
import { createHash, timingSafeEqual } from 'node:crypto';

/** valid: keyed limit; missing: served at the keyless limit; invalid: 401. */
export type KeyState = 'valid' | 'missing' | 'invalid';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * With no configured key every non-empty key is accepted. An empty header is a wrong key, not a
 * missing one: the upstream only serves requests without the header keyless.
 */
export function authenticate(header: string | string[] | undefined, configuredKey: string | undefined): KeyState {
  if (header === undefined) return 'missing';
  const presented = Array.isArray(header) ? (header[0] ?? '') : header;
  if (presented === '') return 'invalid';
  if (configuredKey === undefined) return 'valid';
  return timingSafeEqual(digest(presented), digest(configuredKey)) ? 'valid' : 'invalid';
}
