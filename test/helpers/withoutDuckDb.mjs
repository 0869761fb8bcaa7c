// Loaded with `node --import`: makes @duckdb/* unresolvable, as in an install without DuckDB's
// native bindings (an optional dependency), to check which commands still run there.
import { register } from 'node:module';

const hook = `export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@duckdb/')) throw new Error('Cannot find module ' + specifier + ' (hidden by withoutDuckDb.mjs)');
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
