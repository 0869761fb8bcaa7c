/**
 * Import rules for src/, checked by `npm run lint` (dependency-cruiser). The layering they keep is
 * the "may import" column of docs/architecture.md's table, read from there (see layerRules): the
 * table is the one statement of which part of src/ may import which, and an import it does not
 * name fails here. A cycle between files, or between src/'s top-level folders, fails too.
 */
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const TABLE_DOC = 'docs/architecture.md';

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The part of src/ a table name stands for: `sync/` or `sync` for the folder, `config.ts` or `config` for the file. */
const partName = (name) => name.replace(/\/$/, '').replace(/\.ts$/, '');
const partPath = (part) => `^src/${escapeRegExp(part)}(/|\\.ts$)`;

/**
 * The rows of the table under "## What each folder owns": each row's parts (first column) and what
 * they may import (third column): `x` (any import), `x types` (`import type` only), `nothing`,
 * `every folder`; words in brackets are the reader's and are skipped.
 */
function readTable(text) {
  const section = text.split(/^## /m).find((part) => part.startsWith('What each folder owns'));
  if (!section) throw new Error(`${TABLE_DOC}: no "## What each folder owns" section`);
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  return rows.map(([parts, , mayImport]) => {
    const names = [...parts.matchAll(/`([^`]+)`/g)].map((match) => partName(match[1]));
    const bare = mayImport.replace(/\([^)]*\)/g, '').trim();
    if (bare === 'every folder') return { names, every: true, values: [], types: [] };
    if (bare === 'nothing') return { names, every: false, values: [], types: [] };
    const values = [];
    const types = [];
    for (const item of bare.split(',')) {
      const match = /^`([^`]+)`( types)?$/.exec(item.trim());
      if (!match) throw new Error(`${TABLE_DOC}: "${item.trim()}" in the row of ${parts} is not \`name\` or \`name\` types`);
      (match[2] ? types : values).push(partName(match[1]));
    }
    return { names, every: false, values, types };
  });
}

/** One rule a row: its parts import only what it names, and `x types` only through `import type`. */
function layerRules(rows) {
  const known = new Set(rows.flatMap((row) => row.names));
  const present = readdirSync(join(__dirname, 'src'), { withFileTypes: true }).map((entry) => partName(entry.name));
  const missing = present.filter((part) => !known.has(part));
  if (missing.length > 0) throw new Error(`${TABLE_DOC}: no row for src/${missing.join(', src/')}: add it to the table`);
  const rules = [];
  for (const row of rows) {
    for (const part of [...row.values, ...row.types, ...row.names]) {
      if (!present.includes(part)) throw new Error(`${TABLE_DOC}: the table names "${part}", which src/ does not hold`);
    }
    if (row.every) continue;
    const from = { path: row.names.map(partPath).join('|') };
    const allowed = [...row.names, ...row.values, ...row.types].map(partPath).join('|');
    rules.push({
      name: `table-${row.names.join('-')}`,
      comment: `${row.names.join(', ')} may import only what ${TABLE_DOC} says (may import: ${[...row.values, ...row.types.map((t) => `${t} types`)].join(', ') || 'nothing'}). Add the import to the table if it is right.`,
      severity: 'error',
      from,
      to: { path: '^src/', pathNot: allowed },
    });
    if (row.types.length > 0) {
      rules.push({
        name: `table-${row.names.join('-')}-types`,
        comment: `${row.names.join(', ')} may import ${row.types.join(', ')} only with \`import type\` (${TABLE_DOC}).`,
        severity: 'error',
        from,
        to: { path: row.types.map(partPath).join('|'), dependencyTypesNot: ['type-only'] },
      });
    }
  }
  return rules;
}

module.exports = {
  forbidden: [
    ...layerRules(readTable(readFileSync(join(__dirname, TABLE_DOC), 'utf8'))),
    {
      name: 'no-file-cycle',
      comment: 'Two files that import each other (directly or through others) cannot be understood, tested or moved one at a time.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      comment: "src/'s top-level folders form layers: a folder that imports one that imports it back has no place in them.",
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/[^/]+' },
      to: { circular: true },
    },
    {
      name: 'sql-opens-no-connection',
      comment: 'src/sql/ operations take a pool or transaction as their first argument; only src/db/ opens connections.',
      severity: 'error',
      from: { path: '^src/sql/' },
      to: { path: '^node_modules/postgres/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'status-and-plan-load-no-job-work',
      comment:
        'status/ and plan/ read the jobs by name (sync/jobCatalog.ts) and their pure schedules; loading the jobs themselves would load the client, the writers and the service with them.',
      severity: 'error',
      from: { path: '^src/(status|plan)/' },
      to: { path: '^src/(service|store|api/client)/|^src/sync/run', reachable: true },
    },
    {
      name: 'no-test-code-in-src',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
