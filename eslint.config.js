// Lint rules for `npm run lint`. Formatting belongs to prettier (eslint-config-prettier turns off
// the rules it owns); import layering belongs to dependency-cruiser (.dependency-cruiser.cjs).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'coverage/', 'node_modules/', 'migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      // One order of imports everywhere (packages, then the project's by path), fixed by `eslint --fix`:
      // a file's imports read as a list, and two changes that add imports merge without a quarrel.
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'error',
      // An unawaited promise is a write that may never finish or an error nobody sees.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always'],
      // Sanitizers match control characters on purpose (NUL, escape sequences from upstream text).
      'no-control-regex': 'off',
      'no-console': 'error',
    },
  },
  // Tests, benchmarks and the scripts that draw the docs' pictures print results and poke at raw JSON bodies, whose shape is what they check.
  { files: ['test/**', 'bench/**', 'scripts/**'], rules: { 'no-console': 'off', '@typescript-eslint/no-explicit-any': 'off' } },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  // CommonJS config files (dependency-cruiser's) load with require().
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['**/*.mjs'], languageOptions: { globals: { process: 'readonly', console: 'readonly' } } },
  prettier,
);
