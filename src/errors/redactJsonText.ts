import type { Redact } from './createSecretRedactor.js';

/**
 * `text` with every secret `redact` knows replaced, and still the same JSON when it was JSON: the
 * replacement is made inside the parsed strings (values and keys), never in the text, so it can
 * never cut a JSON escape sequence in half whatever characters the secret contains. Text that is
 * not JSON (an HTML error page) is redacted as plain text. Returns `text` itself when it holds no
 * secret, so the common case costs one scan and no parse.
 */
export function redactJsonText(text: string, redact: Redact): string {
  const plain = redact(text);
  if (plain === text) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return plain;
  }
  try {
    const trailing = text.slice(text.trimEnd().length);
    return JSON.stringify(redactValue(parsed, redact)) + trailing;
  } catch {
    // Nesting deeper than the stack (a hostile body): the plain replacement still hides the secret.
    return plain;
  }
}

function redactValue(value: unknown, redact: Redact): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact));
  if (value !== null && typeof value === 'object') {
    // fromEntries defines own properties, so a "__proto__" key stays a key instead of setting the prototype.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactValue(v, redact)]));
  }
  return value;
}
