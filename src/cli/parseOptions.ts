import { usageError } from './cliError.js';

/** Parses a command-line integer option, naming it in the error: `--max-orderbooks must be an integer >= 0, got "x"`. */
export function parseIntOption(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min) {
    throw usageError(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
  }
  return n;
}
