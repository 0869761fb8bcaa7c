/** Exact decimal text from integer micro-USD (no float rounding on the way). */

const MICRO_PER_USD = 1_000_000;
const MICRO_PER_CENT = 10_000;

function dollarsAndCents(microUsd: number): [string, string] {
  const cents = Math.floor(microUsd / MICRO_PER_CENT);
  return [String(Math.floor(cents / 100)), String(cents % 100).padStart(2, '0')];
}

/** "1523423.55": the event `volumeUsd` numeric string. */
export function usdString(microUsd: number): string {
  const [dollars, cents] = dollarsAndCents(microUsd);
  return `${dollars}.${cents}`;
}

/** "1,523,423.55": the event `tvlDollars` formatted number, no currency sign. */
export function formattedUsd(microUsd: number): string {
  const [dollars, cents] = dollarsAndCents(microUsd);
  return `${dollars.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

/** "0.6500": decimal dollars for the drifted `yes_dollars` book arrays. */
export function centsAsDollars(priceCents: number): string {
  return (priceCents / 100).toFixed(4);
}

export { MICRO_PER_USD };

/** "0.9950": the exact micro-USD price as 4-decimal dollars (live `*_dollars` book arrays), no float on the way. */
export function microUsdAsDollars(microUsd: number): string {
  const tenThousandths = Math.round(microUsd / 100);
  return `${Math.floor(tenThousandths / 10_000)}.${String(tenThousandths % 10_000).padStart(4, '0')}`;
}
