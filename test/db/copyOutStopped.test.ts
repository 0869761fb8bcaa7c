import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase({ migrated: false });
const sql = postgres(db.url, { max: 1, onnotice: () => {} });
afterAll(() => sql.end({ timeout: 1 }));

describe('a COPY out whose reader stopped early (an export stopped mid-table)', () => {
  it('leaves its connection usable: what the server still sends is dropped, not left to pause the socket', async () => {
    const stream = await sql`copy (select g, repeat('x', 200) from generate_series(1, 200000) g) to stdout`.readable();
    await new Promise((resolve) => stream.once('data', resolve));
    // As writeTable does when the export stops: the reader goes away while rows keep coming.
    stream.destroy();
    // One connection: this waits for the COPY's end to be read.
    expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
  }, 15_000);
});
