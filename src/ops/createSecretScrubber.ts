/**
 * Removes known secret values (the API key, a database password) from a serialized JSON log
 * line. Redaction by field path only catches fields with known names; this catches the value
 * wherever it ended up: a message, an error's message or stack, a URL, a nested field, a key.
 */

const CENSOR = '[REDACTED]';

/**
 * Returns `scrub(line)`, which gives back `line` untouched when no secret occurs in it, and
 * otherwise the same JSON with every occurrence replaced by `[REDACTED]`.
 *
 * Secrets that are empty or only whitespace are ignored (they would match everywhere). Each secret
 * is also looked for in its JSON-escaped and URL-encoded forms, the shapes it takes in a
 * serialized line or inside a URL.
 */
export function createSecretScrubber(secrets: readonly (string | null | undefined)[]): (line: string) => string {
  const raw = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.trim() !== ''))];
  if (raw.length === 0) return (line) => line;
  // Longest first, so a secret containing another is replaced whole rather than half-censored.
  const values = expand(raw).sort((a, b) => b.length - a.length);
  const needles = [...new Set(values.flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]))];

  const scrubString = (s: string): string => {
    let out = s;
    for (const v of values) if (out.includes(v)) out = out.replaceAll(v, CENSOR);
    return out;
  };

  return (line) => {
    if (!needles.some((n) => line.includes(n))) return line;
    const trailing = line.endsWith('\n') ? '\n' : '';
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      // Not JSON (should not happen with pino): plain replacement is still better than a leak.
      let out = line;
      for (const n of needles) out = out.replaceAll(n, CENSOR);
      return out;
    }
    // Replacing inside the parsed strings, rather than in the text, can never break a JSON escape
    // sequence, whatever characters the secret contains.
    return JSON.stringify(scrubValue(parsed, scrubString)) + trailing;
  };
}

/** The secret as given plus its percent-encoded forms (as in a URL's query or userinfo). */
function expand(secrets: readonly string[]): string[] {
  const out = new Set<string>();
  for (const s of secrets) {
    out.add(s);
    out.add(encodeURIComponent(s));
    out.add(encodeURI(s));
  }
  return [...out];
}

function scrubValue(value: unknown, scrub: (s: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, scrub));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[scrub(k)] = scrubValue(v, scrub);
    return out;
  }
  return value;
}
