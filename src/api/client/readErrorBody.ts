import { createSecretRedactor } from '../../errors/createSecretRedactor.js';
import { sanitizeText } from '../../errors/sanitizeText.js';

const MAX_DETAIL_CHARS = 200;

/** What an error body says, for the error it becomes. */
export interface ErrorBody {
  /**
   * The server's own words: `message` (with `code` or `type`) from either of the two error shapes
   * upstream sends, else the start of the text. One line, at most 200 characters, cleaned by
   * sanitizeText (no terminal escape or control character), and the API key, or any 8-character
   * piece of it, blanked out in case a server echoes it.
   */
  detail: string | undefined;
  /**
   * The parameter the body blames (`param`, e.g. `provider`), if it names one that looks like a
   * parameter name: the CLI maps it to the option or setting it came from.
   */
  param: string | undefined;
}

/** Reads an error body once, whatever its shape: JSON of either error shape, or any text. */
export function readErrorBody(body: string, apiKey: string | undefined): ErrorBody {
  // Only the start can be shown: parsing or cleaning megabytes of an error page would be wasted.
  let detail = body.length > 64 * 1024 ? body.slice(0, 4 * MAX_DETAIL_CHARS) : body;
  let param: string | undefined;
  try {
    const parsed: unknown = JSON.parse(detail);
    if (parsed !== null && typeof parsed === 'object') {
      const fields = parsed as Record<string, unknown>;
      const label = [fields.code, fields.type].find((v) => typeof v === 'string' || typeof v === 'number');
      if (typeof fields.message === 'string') detail = label === undefined ? fields.message : `${String(label)}: ${fields.message}`;
      if (typeof fields.param === 'string' && /^[A-Za-z][\w.-]{0,63}$/.test(fields.param)) param = fields.param;
    }
  } catch {
    // Not JSON (an HTML error page, say): keep the text.
  }
  const cleaned = sanitizeText(detail, MAX_DETAIL_CHARS, createSecretRedactor([apiKey]))
    .replace(/\s+/g, ' ')
    .trim();
  return { detail: cleaned === '' ? undefined : cleaned, param };
}
