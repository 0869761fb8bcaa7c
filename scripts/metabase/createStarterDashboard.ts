/**
 * Creates the starter dashboard in Metabase through its REST API (written against Metabase
 * v0.65, the version docker-compose.yml runs): a collection "prediction-ingest", one native SQL
 * question per STARTER_QUESTIONS entry, and a dashboard "prediction-ingest: starter" holding them.
 * Run again, it updates what it made (found by name in that collection) instead of adding copies.
 *
 *   METABASE_USER=you@example.com METABASE_PASSWORD=… npx tsx scripts/metabase/createStarterDashboard.ts \
 *     [--url http://127.0.0.1:3000] [--database prediction]
 *
 * METABASE_API_KEY (Admin → Settings → Authentication → API keys) may replace the user and
 * password. `--database` is the name the ingest database was given in Metabase (Admin → Databases).
 * Credentials come from the environment, never the command line, where other users could read them.
 */
import { STARTER_QUESTIONS, type StarterQuestion } from './starterQuestions.js';

const COLLECTION = 'prediction-ingest';
const DASHBOARD = 'prediction-ingest: starter';
const GRID_WIDTH = 24;

interface Item {
  id: number;
  name: string;
  model?: string;
  archived?: boolean;
}

function argument(argv: readonly string[], name: string, fallback: string): string {
  const at = argv.indexOf(name);
  return at === -1 ? fallback : (argv[at + 1] ?? fallback);
}

/** A client of Metabase's API with one authentication header on every request. */
async function metabaseApi(baseUrl: string): Promise<<T>(method: string, path: string, body?: unknown) => Promise<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const apiKey = process.env.METABASE_API_KEY;
  if (apiKey) headers['x-api-key'] = apiKey;
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(new URL(path, baseUrl), {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`Metabase answered ${method} ${path} with ${response.status}: ${text.slice(0, 300)}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
  if (!apiKey) {
    const username = process.env.METABASE_USER;
    const password = process.env.METABASE_PASSWORD;
    if (!username || !password) throw new Error('set METABASE_API_KEY, or METABASE_USER and METABASE_PASSWORD (a Metabase admin)');
    const session = await call<{ id: string }>('POST', '/api/session', { username, password });
    headers['x-metabase-session'] = session.id;
  }
  return call;
}

/** Metabase answers some lists as an array, newer versions as `{ data: [...] }`. */
const listOf = <T>(answer: T[] | { data: T[] }): T[] => (Array.isArray(answer) ? answer : answer.data);

function cardBody(question: StarterQuestion, databaseId: number, collectionId: number): Record<string, unknown> {
  return {
    name: question.name,
    description: question.description,
    display: question.display,
    collection_id: collectionId,
    visualization_settings:
      question.axes === undefined ? {} : { 'graph.dimensions': question.axes.dimensions, 'graph.metrics': question.axes.metrics },
    dataset_query: { type: 'native', database: databaseId, native: { query: question.sql, 'template-tags': {} } },
  };
}

/** Cards laid out left to right, top to bottom, on the 24-column grid. */
function layout(cards: { cardId: number; question: StarterQuestion }[]): Record<string, unknown>[] {
  let row = 0;
  let col = 0;
  let rowHeight = 0;
  return cards.map(({ cardId, question }, i) => {
    if (col + question.width > GRID_WIDTH) {
      row += rowHeight;
      col = 0;
      rowHeight = 0;
    }
    const dashcard = {
      id: -(i + 1),
      card_id: cardId,
      row,
      col,
      size_x: question.width,
      size_y: question.height,
      parameter_mappings: [],
      visualization_settings: {},
    };
    col += question.width;
    rowHeight = Math.max(rowHeight, question.height);
    return dashcard;
  });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const baseUrl = argument(argv, '--url', 'http://127.0.0.1:3000');
  const databaseName = argument(argv, '--database', 'prediction');
  const api = await metabaseApi(baseUrl);

  const databases = listOf(await api<Item[] | { data: Item[] }>('GET', '/api/database'));
  const database = databases.find((d) => d.name === databaseName);
  if (database === undefined) {
    throw new Error(
      `Metabase has no database named ${JSON.stringify(databaseName)} (it has: ${databases.map((d) => d.name).join(', ') || 'none'}); ` +
        'add it first (docs/operations.md, "Connect Metabase to the data") or name it with --database',
    );
  }

  const collections = listOf(await api<Item[] | { data: Item[] }>('GET', '/api/collection'));
  const collection =
    collections.find((c) => c.name === COLLECTION && c.archived !== true) ??
    (await api<Item>('POST', '/api/collection', {
      name: COLLECTION,
      description: 'Made by scripts/metabase/createStarterDashboard.ts',
      parent_id: null,
    }));
  const items = listOf(await api<Item[] | { data: Item[] }>('GET', `/api/collection/${collection.id}/items?models=card&models=dashboard`));

  const cards: { cardId: number; question: StarterQuestion }[] = [];
  for (const question of STARTER_QUESTIONS) {
    const existing = items.find((i) => i.model === 'card' && i.name === question.name);
    const body = cardBody(question, database.id, collection.id);
    const card =
      existing === undefined ? await api<Item>('POST', '/api/card', body) : await api<Item>('PUT', `/api/card/${existing.id}`, body);
    cards.push({ cardId: card.id, question });
    console.log(`${existing === undefined ? 'created' : 'updated'} question ${JSON.stringify(question.name)} (${card.id})`);
  }

  const existingDashboard = items.find((i) => i.model === 'dashboard' && i.name === DASHBOARD);
  const dashboard =
    existingDashboard ??
    (await api<Item>('POST', '/api/dashboard', {
      name: DASHBOARD,
      description: 'What the ingester has stored: markets, freshness, prices, books and runs.',
      collection_id: collection.id,
    }));
  await api('PUT', `/api/dashboard/${dashboard.id}`, { dashcards: layout(cards) });
  console.log(`dashboard ${JSON.stringify(DASHBOARD)}: ${new URL(`/dashboard/${dashboard.id}`, baseUrl).href}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main().catch((error: unknown) => {
    console.error(`createStarterDashboard: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
