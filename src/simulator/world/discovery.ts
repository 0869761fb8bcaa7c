/** Search and suggestions: both read the cached volume-ranked listing of a provider. */
import type { ListingCache } from './listing.js';
import { hash32, Rng } from './prng.js';
import type { SimEvent, SimProvider } from './simTypes.js';

/** Active events whose title contains `query` (case-insensitive), by volume desc then id. */
export function searchEvents(listings: ListingCache, provider: SimProvider, query: string, limit: number): SimEvent[] {
  const needle = query.toLowerCase();
  const found: SimEvent[] = [];
  for (const e of listings.list({ provider, category: 'all' })) {
    if (e.titleLower.includes(needle)) found.push(e);
    if (found.length >= limit) break;
  }
  return found;
}

/** Suggestions shown to one order public key: 3..8 active events picked by a hash of the key. */
export function suggestEvents(listings: ListingCache, seed: number, provider: SimProvider, pubkey: string): SimEvent[] {
  // Pick from the beginAt order (stable by id) so a key's suggestions do not churn with volume.
  const pool = listings.list({ provider, category: 'all', sortBy: 'beginAt' });
  const rng = Rng.seeded(hash32(seed, 'suggest', pubkey));
  const want = Math.min(pool.length, rng.int(3, 8));
  const picked = new Set<number>();
  while (picked.size < want) picked.add(Math.floor(rng.next() * pool.length));
  return [...picked].map((i) => pool[i]!);
}
