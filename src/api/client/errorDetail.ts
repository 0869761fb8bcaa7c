const MAX_DETAIL_CHARS = 200;

/**
 * The server's own words from an error body, for an error message: `message` (with `code` or
 * `type`) from either of the two error shapes upstream sends, else the start of the text.
 * One line, at most 200 characters, and the API key blanked out in case a server echoes it.
 */
export function errorDetail(body: string, apiKey: string | undefined): string | undefined {
  let detail = body;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed !== null && typeof parsed === 'object') {
      const { message, code, type } = parsed as Record<string, unknown>;
      const label = [code, type].find((v) => typeof v === 'string' || typeof v === 'number');
      if (typeof message === 'string') detail = label === undefined ? message : `${String(label)}: ${message}`;
    }
  } catch {
    // Not JSON (an HTML error page, say): keep the text.
  }
  if (apiKey) detail = detail.split(apiKey).join('[redacted]');
  detail = detail.replace(/\s+/g, ' ').trim();
  if (detail === '') return undefined;
  return detail.length > MAX_DETAIL_CHARS ? `${detail.slice(0, MAX_DETAIL_CHARS)}…` : detail;
}
