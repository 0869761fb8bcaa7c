import { defineConfig } from 'drizzle-kit';

// Generation only (`npm run db:generate`): it diffs the TS schema against migrations/ and needs
// no database. Migrations are applied by `npm run cli -- migrate` (under an advisory lock), never `push`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema/index.ts',
  out: './migrations',
  schemaFilter: ['prediction', 'analytics'],
});
