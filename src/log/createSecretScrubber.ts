import { createSecretRedactor } from '../errors/createSecretRedactor.js';
import { redactJsonText } from '../errors/redactJsonText.js';

/**
 * Removes known secret values (the API key, a database password) from a serialized JSON log
 * line. Redaction by field path only catches fields with known names; this catches the value
 * wherever it ended up: a message, an error's message or stack, a URL, a nested field, a key.
 */

/**
 * Returns `scrub(line)`, which gives back `line` untouched when no secret occurs in it, and
 * otherwise the same JSON with every occurrence replaced by `[REDACTED]`.
 *
 * Any piece of 8 or more characters of a secret counts, not only the whole value: validation
 * messages quote the start of a value, and that is how part of a reflected key reached the logs
 *. Secrets that are empty or only whitespace are ignored (they would match everywhere).
 * Each secret is also looked for in its JSON-escaped and URL-encoded forms (see createSecretRedactor).
 */
export function createSecretScrubber(secrets: readonly (string | null | undefined)[]): (line: string) => string {
  const redact = createSecretRedactor(secrets);
  return (line) => redactJsonText(line, redact);
}
