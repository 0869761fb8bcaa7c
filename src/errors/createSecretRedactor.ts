/** What a secret, or a piece of one, is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * A piece of a secret at least this long is a leak: validation messages quote the first 40
 * characters of a value, so a key reflected by an upstream reached the logs cut short, where a
 * whole-value match missed it. Shorter pieces are too likely to be ordinary text.
 */
export const MIN_SECRET_FRAGMENT = 8;

/** Returns `text` itself when it holds no secret, else a copy with each piece replaced by REDACTED. */
export type Redact = (text: string) => string;

/**
 * Builds, once, a redactor for known secret values (the API key, database passwords: see
 * configSecrets). It replaces every run of `MIN_SECRET_FRAGMENT` or more characters that occurs in
 * a secret, in the secret as given and in the forms it takes in JSON text (`\"`, `\\`, `\/`) and in
 * a URL (percent-encoded). A secret shorter than that is matched whole. Empty or blank secrets are
 * ignored (they would match everywhere).
 *
 * One pass over the text with a rolling hash of each 8-character window: cheap enough to run on
 * every response body the client reads (up to `maxResponseBytes`).
 */
export function createSecretRedactor(secrets: readonly (string | null | undefined)[]): Redact {
  const raw = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.trim() !== ''))];
  if (raw.length === 0) return (text) => text;

  const index: GramIndex = { grams: new Map(), filter: new Uint8Array(FILTER_SIZE), chars: new Uint8Array(0x10000) };
  const shortNeedles = new Set<string>();
  for (const variant of variantsOf(raw)) {
    if (variant.length < MIN_SECRET_FRAGMENT) {
      shortNeedles.add(variant);
      continue;
    }
    for (let i = 0; i + MIN_SECRET_FRAGMENT <= variant.length; i++) {
      const gram = variant.slice(i, i + MIN_SECRET_FRAGMENT);
      const h = hashAt(gram, 0);
      const bucket = index.grams.get(h) ?? [];
      if (!bucket.includes(gram)) bucket.push(gram);
      index.grams.set(h, bucket);
      index.filter[h & FILTER_MASK] = 1;
    }
    for (let i = 0; i < variant.length; i++) index.chars[variant.charCodeAt(i)] = 1;
  }

  return (text) => {
    const ranges: [number, number][] = [];
    if (index.grams.size > 0 && text.length >= MIN_SECRET_FRAGMENT) findGrams(text, index, ranges);
    for (const needle of shortNeedles) {
      for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
        ranges.push([at, at + needle.length]);
      }
    }
    return ranges.length === 0 ? text : replaceRanges(text, ranges);
  };
}

interface GramIndex {
  /** Hash of each 8-character piece of a secret -> the pieces with that hash. */
  readonly grams: Map<number, string[]>;
  /** 1 where some piece's hash has these low 16 bits: most windows are refused without a Map lookup. */
  readonly filter: Uint8Array;
  /** 1 for each UTF-16 unit that occurs in a secret (pieces of a secret are made only of these). */
  readonly chars: Uint8Array;
}

const FILTER_SIZE = 1 << 16;
const FILTER_MASK = FILTER_SIZE - 1;
const BASE = 0x01000193;
/** BASE ** (MIN_SECRET_FRAGMENT - 1), modulo 2^32: what the character leaving the window weighs. */
const OUTGOING_WEIGHT = Array.from({ length: MIN_SECRET_FRAGMENT - 1 }).reduce<number>((w) => Math.imul(w, BASE), 1);

function hashAt(text: string, start: number): number {
  let h = 0;
  for (let k = 0; k < MIN_SECRET_FRAGMENT; k++) h = (Math.imul(h, BASE) + text.charCodeAt(start + k)) | 0;
  return h;
}

/**
 * Pushes [start, end) of every window that is a piece of a secret, overlapping windows merged. A
 * window holding a character no secret has cannot match, so the scan jumps past such a character
 * (looking at a window's last character first, as Boyer-Moore-Horspool does) and hashes only runs of
 * characters that all occur in a secret.
 */
function findGrams(text: string, index: GramIndex, ranges: [number, number][]): void {
  const m = MIN_SECRET_FRAGMENT;
  const n = text.length;
  let open: [number, number] | undefined;
  const check = (i: number, h: number) => {
    if (index.filter[h & FILTER_MASK] !== 1 || !index.grams.get(h)?.some((g) => text.startsWith(g, i))) return;
    // Overlapping windows are one run; merely adjacent ones (two secrets side by side) stay two.
    if (open && i < open[1]) open[1] = i + m;
    else ranges.push((open = [i, i + m]));
  };
  let i = 0;
  while (i + m <= n) {
    let j = i + m - 1;
    while (j >= i && index.chars[text.charCodeAt(j)] === 1) j--;
    if (j >= i) {
      i = j + 1;
      continue;
    }
    let h = hashAt(text, i);
    check(i, h);
    while (i + m < n && index.chars[text.charCodeAt(i + m)] === 1) {
      h = (Math.imul((h - Math.imul(text.charCodeAt(i), OUTGOING_WEIGHT)) | 0, BASE) + text.charCodeAt(i + m)) | 0;
      i++;
      check(i, h);
    }
    i += m + 1;
  }
}

function replaceRanges(text: string, ranges: [number, number][]): string {
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = '';
  let at = 0;
  for (const [start, end] of ranges) {
    if (end <= at) continue;
    if (start < at) {
      // Overlaps the run just replaced (a short secret inside a longer one): extend that run.
      at = end;
      continue;
    }
    out += text.slice(at, start) + REDACTED;
    at = end;
  }
  return out + text.slice(at);
}

/** The secrets as given, as written inside a JSON string, and percent-encoded (a URL's userinfo or query). */
function variantsOf(secrets: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const s of secrets) {
    const json = JSON.stringify(s).slice(1, -1);
    out.add(s);
    out.add(json);
    out.add(json.replaceAll('/', '\\/'));
    out.add(encodeURIComponent(s));
    out.add(encodeURI(s));
  }
  return out;
}
