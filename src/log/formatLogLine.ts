import { sanitizeText } from '../errors/sanitizeText.js';

/** Fields pino writes on every line, or that the pretty line shows in its own place. */
const OWN_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg']);
/** Bound of one field's value on a pretty line: a huge object would otherwise drown the line. */
const MAX_VALUE_CHARS = 300;
/** Bound of the whole message part of a pretty line. */
const MAX_LINE_CHARS = 2000;

/**
 * The message part of a pretty log line (pino-pretty prints the time and level before it): the
 * message, then the other fields as `key=value`. A finished job reads as a sentence instead:
 * `crawl finished in 1.2 s · 40 requests · 380/400 records written · run 17`.
 *
 * Every value was parsed back from the JSON line, where escapes made control characters harmless;
 * here they are raw again, so each piece is sanitized, and redacted once more (a secret split by an
 * escape sequence only shows once the sequence is gone).
 */
export function formatLogLine(log: Readonly<Record<string, unknown>>, redact?: (text: string) => string): string {
  const clean = (text: string, max: number) => sanitizeText(text, max, redact);
  const msg = typeof log.msg === 'string' ? log.msg : '';
  const summary = jobSummary(log, msg);
  const head = summary ?? msg;
  const shown = summary ? SUMMARY_FIELDS : OWN_FIELDS;
  const rest = Object.entries(log)
    .filter(([key, value]) => !OWN_FIELDS.has(key) && !shown.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${clean(valueText(value), MAX_VALUE_CHARS)}`);
  return clean([head, ...rest].join(' '), MAX_LINE_CHARS);
}

/** Fields a job summary says in words; the others (degradation, err, ...) follow as `key=value`. */
const SUMMARY_FIELDS = new Set([
  'job',
  'runId',
  'status',
  'durationMs',
  'requests',
  'requestsByStatus',
  'recordsSeen',
  'recordsWritten',
  'recordsRejected',
  'rowsByTable',
  'recordsByEndpoint',
  'degradation',
  // The gateway's window the run saw: in the JSON line, and in `status`; too long for the sentence.
  'serverRateLimit',
]);

/** `crawl finished in 1.2 s · …` for the scheduler's end-of-run lines (`job finished`, `job degraded: …`). */
function jobSummary(log: Readonly<Record<string, unknown>>, msg: string): string | undefined {
  const { job, durationMs, requests, recordsSeen, recordsWritten, recordsRejected, runId } = log;
  if (typeof job !== 'string' || typeof durationMs !== 'number' || typeof requests !== 'number' || !msg.startsWith('job ')) {
    return undefined;
  }
  // `job degraded: <reason>`: the reason goes last, after the figures.
  const [outcome, ...reason] = msg.slice('job '.length).split(': ');
  const parts = [`${job} ${outcome} in ${(durationMs / 1000).toFixed(1)} s`, `${requests} requests`];
  if (typeof recordsSeen === 'number' && typeof recordsWritten === 'number') {
    const rejected = typeof recordsRejected === 'number' && recordsRejected > 0 ? `, ${recordsRejected} rejected` : '';
    parts.push(`${recordsWritten}/${recordsSeen} records written${rejected}`);
  }
  if (runId !== undefined) parts.push(`run ${valueText(runId)}`);
  if (reason.length > 0) parts.push(reason.join(': '));
  return parts.join(' · ');
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && 'message' in value && typeof value.message === 'string') return value.message;
  return JSON.stringify(value) ?? String(value);
}
