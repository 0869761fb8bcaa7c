import { AMOUNT_FRACTION_DIGITS, AMOUNT_INTEGER_DIGITS, type Decimal } from '../domain/types.js';

/**
 * Canonical decimal text: optional "-", no leading zeros, no trailing fractional zeros, no exponent,
 * no thousands separators ("0,650,000.50" -> "650000.5"). Pure string work: exact for any length.
 * The input must already be validated decimal notation (commas allowed).
 */
export function decimalFromString(text: string): Decimal {
  const negative = text.startsWith('-');
  const digits = (negative ? text.slice(1) : text).replaceAll(',', '');
  const point = digits.indexOf('.');
  const intPart = (point === -1 ? digits : digits.slice(0, point)).replace(/^0+/, '') || '0';
  const fracPart = point === -1 ? '' : digits.slice(point + 1).replace(/0+$/, '');
  const magnitude = fracPart === '' ? intPart : `${intPart}.${fracPart}`;
  return negative && magnitude !== '0' ? `-${magnitude}` : magnitude;
}

/**
 * The shortest decimal that round-trips to the same double (what the sender wrote in the JSON),
 * with any exponent expanded: 1e-7 -> "0.0000001", 1.5e21 -> "1500000000000000000000".
 */
export function decimalFromNumber(value: number): Decimal {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  // Without an exponent, String() is already canonical (no leading or trailing zeros, "-0" -> "0").
  const text = String(value);
  const e = text.indexOf('e');
  if (e === -1) return text;
  const negative = text.startsWith('-');
  const mantissa = text.slice(negative ? 1 : 0, e);
  const exponent = Number(text.slice(e + 1));
  const point = mantissa.indexOf('.');
  const digits = mantissa.replace('.', '');
  // Position of the decimal point within `digits` once the exponent is applied.
  const shifted = (point === -1 ? mantissa.length : point) + exponent;
  const expanded =
    shifted <= 0
      ? `0.${'0'.repeat(-shifted)}${digits}`
      : shifted >= digits.length
        ? digits + '0'.repeat(shifted - digits.length)
        : `${digits.slice(0, shifted)}.${digits.slice(shifted)}`;
  return decimalFromString(negative ? `-${expanded}` : expanded);
}

/** A validated wire amount (JSON number or decimal string) as canonical decimal text. */
export function toDecimal(value: number | string): Decimal {
  return typeof value === 'number' ? decimalFromNumber(value) : decimalFromString(value);
}

/** Moves the decimal point `places` to the right (dollars -> cents with 2): exact string work. */
export function shiftDecimal(value: Decimal, places: number): Decimal {
  const negative = value.startsWith('-');
  const digits = negative ? value.slice(1) : value;
  const point = digits.indexOf('.');
  const intPart = point === -1 ? digits : digits.slice(0, point);
  const fracPart = (point === -1 ? '' : digits.slice(point + 1)).padEnd(places, '0');
  const shifted = `${intPart}${fracPart.slice(0, places)}.${fracPart.slice(places)}`;
  return decimalFromString(negative ? `-${shifted.replace(/\.$/, '')}` : shifted.replace(/\.$/, ''));
}

/** The exact sum of two non-negative canonical decimals (merged order-book sizes). */
export function addDecimals(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(fractionDigits(a), fractionDigits(b));
  const sum = scaled(a, scale) + scaled(b, scale);
  if (scale === 0) return sum.toString();
  const text = sum.toString().padStart(scale + 1, '0');
  return decimalFromString(`${text.slice(0, -scale)}.${text.slice(-scale)}`);
}

function fractionDigits(value: Decimal): number {
  const point = value.indexOf('.');
  return point === -1 ? 0 : value.length - point - 1;
}

function scaled(value: Decimal, scale: number): bigint {
  const [intPart = '0', fracPart = ''] = value.split('.');
  return BigInt(intPart + fracPart.padEnd(scale, '0'));
}

/** Whether a canonical decimal is within the stored amounts' bound (AMOUNT_INTEGER_DIGITS, AMOUNT_FRACTION_DIGITS). */
export function fitsAmount(value: Decimal): boolean {
  const magnitude = value.startsWith('-') ? value.slice(1) : value;
  const [integer = '', fraction = ''] = magnitude.split('.');
  return integer.length <= AMOUNT_INTEGER_DIGITS && fraction.length <= AMOUNT_FRACTION_DIGITS;
}
