/**
 * Import rules for src/, checked by `npm run lint` (dependency-cruiser). The layering they keep is
 * drawn in docs/architecture.md: a cycle between files, or between src/'s top-level folders, fails.
 */
module.exports = {
  forbidden: [
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
      name: 'normalize-is-pure',
      comment: 'normalize/ turns wire records into domain records and touches neither the network nor the database.',
      severity: 'error',
      from: { path: '^src/normalize/' },
      to: { path: '^src/(db|sql|store|sync|api/client|service|ops|cli)/' },
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
