const DURATION_UNITS = [
  [86_400, 'd'],
  [3600, 'h'],
  [60, 'm'],
  [1, 's'],
] as const;

/**
 * A duration for a person, in its two largest units: `45s`, `9m 5s`, `20m`, `2h 3m`, `3d 4h`. Negative
 * spans read as `0s`. The reports (`status`, `plan`) and the probes' details (ops/checkAge.ts) all say
 * durations this way.
 */
export function humanDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const i = DURATION_UNITS.findIndex(([size]) => s >= size);
  const [size, unit] = DURATION_UNITS[i]!;
  const [nextSize, nextUnit] = DURATION_UNITS[i + 1]!;
  const rest = Math.floor((s % size) / nextSize);
  return rest === 0 ? `${Math.floor(s / size)}${unit}` : `${Math.floor(s / size)}${unit} ${rest}${nextUnit}`;
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A size for a person: `512 B`, `8.0 KiB`, `1.4 GiB`. */
export function humanBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${BYTE_UNITS[unit]}`;
}

/** A count with thousands separators, the same on every machine: `1,234,567`. */
export function humanCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
