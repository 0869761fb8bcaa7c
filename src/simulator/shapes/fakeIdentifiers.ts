/**
 * Upstream-looking identifiers the live shape carries and the world does not model (on-chain
 * keys, CLOB token ids, slugs): pure functions of the seed and a record id, so they never change.
 */
import { hash32, Rng } from '../world/prng.js';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Solana public keys are 32 bytes: 43 or 44 base58 characters. */
const PUBKEY_CHARS = 44;
/** Polymarket CLOB token ids are uint256 values in decimal: up to 78 digits. */
const TOKEN_DIGITS = 77;

const stream = (seed: number, what: string, id: string) => Rng.seeded(hash32(seed, what, id));

/** The `marketResultPubkey` of a resolved market. */
export function resultPubkey(seed: number, marketId: string): string {
  const rng = stream(seed, 'result-pubkey', marketId);
  return Array.from({ length: PUBKEY_CHARS }, () => rng.pick([...BASE58])).join('');
}

/** The YES and NO token ids of a market. */
export function clobTokenIds(seed: number, marketId: string): [string, string] {
  const rng = stream(seed, 'clob-token-ids', marketId);
  const token = () => String(rng.int(1, 9)) + Array.from({ length: TOKEN_DIGITS - 1 }, () => String(rng.int(0, 9))).join('');
  return [token(), token()];
}

/** "f1-monaco-grand-prix-winner-jun-3-2026" from a title. */
export function slugOf(title: string): string {
  return title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The wallet of one of the world's traders (fills.ts): the trade feed's `ownerPubkey`. */
export function traderPubkey(seed: number, trader: number): string {
  const rng = stream(seed, 'trader-pubkey', String(trader));
  return Array.from({ length: PUBKEY_CHARS }, () => rng.pick([...BASE58])).join('');
}
