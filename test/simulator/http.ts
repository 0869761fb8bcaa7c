/** Tiny HTTP helper for simulator tests: real requests over loopback with undici. */
import { request } from 'undici';

import type { Simulator } from '../../src/simulator/index.js';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
}

/** GET `path` (relative to sim.url). `key: null` sends no x-api-key header. */
export async function get(sim: Simulator, path: string, key: string | null = 'test-key'): Promise<Reply> {
  const res = await request(sim.url + path, { headers: key === null ? {} : { 'x-api-key': key } });
  const text = await res.body.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
  return { status: res.statusCode, headers, body: text === '' ? undefined : JSON.parse(text), text };
}

/** Pages through a list endpoint (from `from`) following pagination.end until hasNext is false. */
export async function crawl(sim: Simulator, path: string, askPerPage: number, from = 0): Promise<{ items: any[]; pages: Reply[] }> {
  const items: any[] = [];
  const pages: Reply[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let start = from; ;) {
    const reply = await get(sim, `${path}${sep}start=${start}&end=${start + askPerPage}`);
    if (reply.status !== 200) throw new Error(`crawl got ${reply.status}: ${reply.text}`);
    pages.push(reply);
    items.push(...reply.body.data);
    const { end, hasNext } = reply.body.pagination;
    if (!hasNext) break;
    if (end <= start) throw new Error('page did not advance');
    start = end;
  }
  return { items, pages };
}
