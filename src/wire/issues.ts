import type { z } from 'zod';

/**
 * Readable validation messages. zod's defaults ("Invalid input: expected string, received undefined")
 * omit the offending value; quarantine reasons must name field, expectation and value, e.g.
 * `closeTime: expected Unix seconds, got "tomorrow"` or `eventId: required`.
 */

const MAX_SHOWN_CHARS = 40;
const MAX_ISSUES = 5;

/** A short, NUL-free, single-line rendering of an untrusted value: never stringifies a large structure. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    // JSON.stringify escapes control characters, so a NUL never reaches the reason text.
    return value.length > MAX_SHOWN_CHARS
      ? `${JSON.stringify(value.slice(0, MAX_SHOWN_CHARS))}… (${value.length} characters)`
      : JSON.stringify(value);
  }
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `an array of ${value.length} ${value.length === 1 ? 'item' : 'items'}`;
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/** A schema-level error: `expected <what>, got <value>`, or `required` when the key is absent. */
export function expected(what: string) {
  return (issue: { input?: unknown }): string =>
    issue.input === undefined ? 'required' : `expected ${what}, got ${describeValue(issue.input)}`;
}

const TYPE_NAMES: Record<string, string> = { int: 'an integer', array: 'an array', tuple: 'an array', object: 'an object' };

function lengthOf(input: unknown): number | null {
  return typeof input === 'string' || Array.isArray(input) ? input.length : null;
}

/** Per-parse error map (schema-level errors take precedence over it). */
export const readableErrorMap: z.core.$ZodErrorMap = (issue) => {
  // JSON has no undefined: an undefined input is an absent key.
  if (issue.input === undefined && issue.code !== 'custom') return 'required';
  const got = describeValue(issue.input);
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}, got ${got}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => (typeof v === 'string' ? v : String(v))).join('|')}, got ${got}`;
    case 'too_big': {
      const op = issue.inclusive === false ? '<' : '<=';
      const len = lengthOf(issue.input);
      if (issue.origin === 'string') return `too long: ${len} characters (max ${issue.maximum})`;
      if (issue.origin === 'array') return `too many items: ${len} (max ${issue.maximum})`;
      return `must be ${op} ${issue.maximum}, got ${got}`;
    }
    case 'too_small': {
      const op = issue.inclusive === false ? '>' : '>=';
      const len = lengthOf(issue.input);
      if (issue.origin === 'string')
        return issue.minimum === 1 ? 'must not be empty' : `too short: ${len} characters (min ${issue.minimum})`;
      if (issue.origin === 'array') return `too few items: ${len} (min ${issue.minimum})`;
      return `must be ${op} ${issue.minimum}, got ${got}`;
    }
    case 'invalid_format':
      return `expected ${issue.format} format, got ${got}`;
    case 'invalid_union':
      return `expected one of the accepted forms, got ${got}`;
    default:
      return undefined;
  }
};

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `markets[2].metadata.title`; keys that are not plain identifiers are quoted (and NUL-escaped). */
export function formatPath(path: readonly PropertyKey[], prefix = ''): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && IDENTIFIER.test(key) && key.length <= MAX_SHOWN_CHARS) out += out === '' ? key : `.${key}`;
    else out += `[${describeValue(String(key))}]`;
  }
  return out;
}

export interface PathMessage {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** One line: `path: message; path: message (+N more)`. */
export function formatIssues(issues: readonly PathMessage[], prefix = ''): string {
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => {
    const where = formatPath(issue.path, prefix);
    return where === '' ? issue.message : `${where}: ${issue.message}`;
  });
  const more = issues.length > MAX_ISSUES ? ` (+${issues.length - MAX_ISSUES} more)` : '';
  return shown.join('; ') + more;
}

/**
 * What a rejection reason says without its particulars, so reasons can be counted: its first
 * issue, array indices folded and the offending value dropped
 * (`markets[3].multipleWinners: required` -> `markets[].multipleWinners: required`).
 */
export function reasonKind(reason: string): string {
  const first = reason.split('; ')[0]!.replace(/ \(\+\d+ more\)$/, '');
  return first.replace(/\[\d+\]/g, '[]').replace(/, got .*$/, '');
}
