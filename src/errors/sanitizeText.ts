/**
 * Makes untrusted text (an upstream error body, a rejection reason, an error chain) safe to print
 * on one terminal line and to store in a Postgres `text` column:
 *
 * - ESC sequences (CSI, OSC, DCS, …, in their 7-bit and 8-bit forms) are removed: they could set
 *   the terminal title, move the cursor or erase the line and print a fake "sync succeeded";
 * - line breaks, tabs and the other whitespace controls become a space (a message is one line);
 * - every other C0 or C1 control, DEL, NUL and the bidirectional-override characters (which
 *   reorder what is displayed) are written as `\uXXXX`, visible and harmless; a NUL would
 *   otherwise make Postgres refuse the whole write;
 * - a lone surrogate becomes U+FFFD (Postgres refuses it as invalid UTF-8);
 * - the result is at most `maxChars` UTF-16 units, ending in `…` when it was cut.
 *
 * `redact`, when given (see createSecretRedactor), runs on the cleaned text, so that a secret split
 * by an escape sequence (`abcd<ESC>[0mefgh`) is caught once the sequence is gone.
 */
export function sanitizeText(text: string, maxChars: number, redact?: (text: string) => string): string {
  const limit = Math.max(0, Math.floor(maxChars));
  // Bounds the work on a huge input; removing sequences and escaping change the length, hence the margin.
  const inputLimit = limit * 4 + 64;
  const cut = text.length > inputLimit;
  let out = (cut ? text.slice(0, inputLimit) : text)
    .replace(ESCAPE_SEQUENCE, '')
    .replace(WHITESPACE_CONTROL, ' ')
    .replace(OTHER_CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .toWellFormed();
  if (redact) out = redact(out);
  return bound(out, limit, cut);
}

/**
 * ESC (or its 8-bit C1 form) and what the terminal would read as part of the same sequence:
 * - CSI `ESC [` or 0x9B, parameters, intermediates and a final byte (`ESC[2K`, `ESC[31m`);
 * - OSC, DCS, SOS, PM, APC (`ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _`, or 0x9D, 0x90, 0x98, 0x9E,
 *   0x9F) up to BEL or the string terminator (`ESC \` or 0x9C), or to the end when unterminated;
 * - any other ESC with its intermediates and final byte (`ESC c` resets the terminal).
 */
const ESCAPE_SEQUENCE =
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -/]*[0-~]?/g;

/** Tab, line feed, vertical tab, form feed, carriage return, NEL, line and paragraph separators. */
const WHITESPACE_CONTROL = /[\t\n\v\f\r\x85\u2028\u2029]/g;

/** C0, DEL, C1, and the bidirectional marks, embeddings, overrides and isolates. */
const OTHER_CONTROL = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function bound(text: string, limit: number, alreadyCut: boolean): string {
  if (text.length <= limit && !alreadyCut) return text;
  if (limit === 0) return '';
  let end = Math.min(text.length, limit - 1);
  // Never split a surrogate pair: half of one is exactly what Postgres refuses.
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}
