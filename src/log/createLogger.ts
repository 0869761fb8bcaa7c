import { type DestinationStream, type Logger as PinoLogger, pino } from 'pino';
import pinoPretty from 'pino-pretty';

import { createSecretRedactor } from '../errors/createSecretRedactor.js';
import { createSecretScrubber } from './createSecretScrubber.js';
import { formatLogLine } from './formatLogLine.js';

/** `json`: one JSON object per line, for log stores. `pretty`: one readable line per entry, for a terminal. */
export type LogFormat = 'json' | 'pretty';

/** The format for a LOG_FORMAT setting: `auto` is pretty on a terminal only, so piped and collected logs stay JSON. */
export function logFormatFor(setting: LogFormat | 'auto', isTerminal: boolean): LogFormat {
  if (setting !== 'auto') return setting;
  return isTerminal ? 'pretty' : 'json';
}

export interface CreateLoggerOptions {
  /** pino level: fatal, error, warn, info, debug, trace or silent (e.g. `config.logLevel`). */
  level: string;
  /** Written as the `name` field of every line. Default: none. */
  name?: string;
  /** Where lines go. Default: stdout, written synchronously so no line is lost on exit or crash. */
  destination?: DestinationStream;
  /**
   * Known secret values (the API key, database passwords; see `configSecrets`) replaced by
   * `[REDACTED]` wherever they occur in a line. Default: none.
   */
  secrets?: readonly (string | null | undefined)[];
  /** How lines are written (see LogFormat). Default `json`. */
  format?: LogFormat;
}

/**
 * Fields that may carry a secret whatever their value, censored by path. pino's wildcard matches
 * one level, hence the explicit `*.` variants for objects nested one deep (e.g. `{ config }`);
 * a known secret deeper than that is still caught by value (`secrets`).
 */
export const REDACTED_PATHS: readonly string[] = [
  'apiKey',
  '*.apiKey',
  'config.apiKey',
  'PREDICTION_API_KEY',
  '*.PREDICTION_API_KEY',
  'headers["x-api-key"]',
  '*.headers["x-api-key"]',
  'headers.authorization',
  '*.headers.authorization',
  'databaseUrl',
  '*.databaseUrl',
  'testDatabaseUrl',
  '*.testDatabaseUrl',
  'DATABASE_URL',
  '*.DATABASE_URL',
  'TEST_DATABASE_URL',
  '*.TEST_DATABASE_URL',
  'citusTestUrl',
  '*.citusTestUrl',
  'CITUS_TEST_URL',
  '*.CITUS_TEST_URL',
  'password',
  '*.password',
  'pass',
  '*.pass',
];

/**
 * A pino logger writing one JSON object per line, or with `format: 'pretty'` one readable line per
 * entry (pino-pretty's formatter, in process and synchronous, fed the same scrubbed JSON):
 * `{"level":"info","time":"2025-01-01T00:00:00.000Z","pid":1,"hostname":"h","name":"…","msg":"…"}`.
 * Levels are written as names and times as ISO-8601 UTC, for people reading raw lines and for log
 * stores alike. Errors under `err` or `error` keep their type, message, stack and causes.
 */
export function createLogger(options: CreateLoggerOptions): PinoLogger {
  const scrubSecrets = createSecretScrubber(options.secrets ?? []);
  const scrub = (line: string) => escapeTerminalControls(scrubSecrets(line));
  return pino(
    {
      level: options.level,
      ...(options.name === undefined ? {} : { name: options.name }),
      redact: { paths: [...REDACTED_PATHS], censor: '[REDACTED]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
      // The last step before a line is written: whatever the message, the serializers or a
      // child's bindings put in it, a known secret never leaves the process, and a line read in a
      // terminal (`tail -f`) cannot drive it.
      hooks: { streamWrite: scrub },
    },
    options.format === 'pretty' ? prettyStream(options) : (options.destination ?? pino.destination({ dest: 1, sync: true })),
  );
}

function prettyStream(options: CreateLoggerOptions): DestinationStream {
  const redact = createSecretRedactor(options.secrets ?? []);
  const prettify = pinoPretty.prettyFactory({
    translateTime: 'UTC:yyyy-mm-dd HH:MM:ss',
    ignore: 'pid,hostname,name',
    colorize: options.destination === undefined && pinoPretty.isColorSupported,
    // The line is made whole by formatLogLine: the fields follow the message as key=value.
    hideObject: true,
    messageFormat: (log) => formatLogLine(log, redact),
  });
  const destination = options.destination ?? pino.destination({ dest: 1, sync: true });
  // prettyFactory is a pure line-to-line function: the line is written before the call returns, as in JSON mode.
  return { write: (line: string) => void destination.write(prettify(line)) };
}

/**
 * JSON escapes C0 controls (ESC included) but not C1 controls (0x9B is CSI, 0x9D OSC: a terminal
 * may act on them) nor the bidirectional overrides (which reorder what is displayed), so upstream
 * text logged as received could still drive the terminal of whoever reads the log. Such a
 * character can only occur inside a JSON string, where its `\uXXXX` escape is the same value.
 */
function escapeTerminalControls(line: string): string {
  if (!TERMINAL_CONTROL.test(line)) return line;
  return line.replace(TERMINAL_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const TERMINAL_CONTROL = /[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const TERMINAL_CONTROLS = new RegExp(TERMINAL_CONTROL.source, 'g');
