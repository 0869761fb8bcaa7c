import { InvalidArgumentError } from 'commander';

import { PROVIDER_NAME } from '../domain/types.js';

/**
 * Value parsers for commander options (`.option(flags, description, parser, default)`): commander
 * names the option in the error ("option '--port <n>' argument 'x' is invalid. …"), main.ts turns
 * it into exit code 2, and each default is stated once, where the option is declared.
 */

/** A whole number in `min..max`. */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    const text = value.trim();
    const n = Number(text);
    if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER ? `Must be an integer >= ${min}.` : `Must be an integer ${min}..${max}.`,
      );
    }
    return n;
  };
}

/** A finite number in `min..max`, described to the user as `what` ("a share in 0..1"). */
export function decimal(min: number, max: number, what: string): (value: string) => number {
  return (value) => {
    const text = value.trim();
    const n = Number(text);
    if (text === '' || !Number.isFinite(n) || n < min || n > max) throw new InvalidArgumentError(`Must be ${what}.`);
    return n;
  };
}

/** Only the syntax of a number: whether it is in range is for the code that knows the range to say. */
export function numeric(value: string): number {
  if (!/^\s*-?\d+(\.\d+)?\s*$/.test(value)) throw new InvalidArgumentError('Must be a number.');
  return Number(value);
}

/** One of `choices`, as given. */
export function oneOf<const T extends string>(choices: readonly T[]): (value: string) => T {
  return (value) => {
    const text = value.trim();
    if (!(choices as readonly string[]).includes(text)) throw new InvalidArgumentError(`Must be one of ${choices.join(', ')}.`);
    return text as T;
  };
}

/** A comma-separated, non-empty list of `choices`. */
export function listOf<const T extends string>(choices: readonly T[]): (value: string) => T[] {
  return (value) => {
    const items = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = items.filter((k) => !(choices as readonly string[]).includes(k));
    if (items.length === 0 || unknown.length > 0) {
      const named = unknown.length === 0 ? '' : ` Unknown: ${unknown.map((k) => `'${k}'`).join(', ')}.`;
      throw new InvalidArgumentError(`Must be a comma-separated list of ${choices.join(', ')}.${named}`);
    }
    return items as T[];
  };
}

/** A non-empty string. */
export function nonEmpty(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('Must not be empty.');
  return value;
}

/**
 * A provider id (`kalshi`, `polymarket`): its syntax only. The service adds providers (`bisonfi`),
 * so a well-formed name it does not know is its to refuse, with a 400 the command names the option in.
 */
export function providerName(value: string): string {
  const text = value.trim();
  if (!PROVIDER_NAME.test(text)) {
    throw new InvalidArgumentError(
      'Must be a provider name such as kalshi or polymarket (lowercase letters, digits, - or _, starting with a letter).',
    );
  }
  return text;
}
