import { createSecretRedactor } from '../../errors/createSecretRedactor.js';
import { sanitizeText } from '../../errors/sanitizeText.js';

const MAX_DETAIL_CHARS = 200;

/**
 * The server's own words from an error body, for an error message: `message` (with `code` or
 * `type`) from either of the two error shapes upstream sends, else the start of the text.
 * One line, at most 200 characters, cleaned by sanitizeText (no terminal escape or control
 * character), and the API key, or any 8-character piece of it, blanked out in case a server echoes it.
 */
export function errorDetail(body: string, apiKey: string | undefined): string | undefined {
  // Only the start can be shown: parsing or cleaning megabytes of an error page would be wasted.
  let detail = body.length > 64 * 1024 ? body.slice(0, 4 * MAX_DETAIL_CHARS) : body;
  try {
    const parsed: unknown = JSON.parse(detail);
    if (parsed !== null && typeof parsed === 'object') {
      const { message, code, type } = parsed as Record<string, unknown>;
      const label = [code, type].find((v) => typeof v === 'string' || typeof v === 'number');
      if (typeof message === 'string') detail = label === undefined ? message : `${String(label)}: ${message}`;
    }
  } catch {
    // Not JSON (an HTML error page, say): keep the text.
  }
  const cleaned = sanitizeText(detail, MAX_DETAIL_CHARS, createSecretRedactor([apiKey]))
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned === '' ? undefined : cleaned;
}

/**
 * The parameter a service error body blames (`param`, e.g. `provider`), if it names one that looks
 * like a parameter name: the CLI maps it to the option or setting it came from.
 */
export function errorParam(body: string): string | undefined {
  if (body.length > 64 * 1024) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    const param = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>).param : undefined;
    return typeof param === 'string' && /^[A-Za-z][\w.-]{0,63}$/.test(param) ? param : undefined;
  } catch {
    return undefined;
  }
}
