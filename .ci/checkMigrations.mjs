// Fails when the migrations disagree with the drizzle schema, or when a migration that is already
// committed has been edited: migrations are append-only (a database migrated yesterday never sees
// an edit of a file it already applied). Run by `npm run lint`; needs a git checkout with history.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

/**
 * Migrations as they stood when this rule began. Files present then must keep that content; files
 * added later must keep the content of the commit that added them. (Before this commit, 0001 was
 * edited twice; those edits are history, not something to repeat.)
 */
const BASELINE = '8526dfe369df52704f050a53c4af2ecad333ac09';
const JOURNAL = 'migrations/meta/_journal.json';

const git = (...args) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const failures = [];

function checkAppendOnly() {
  try {
    git('cat-file', '-e', `${BASELINE}^{commit}`);
  } catch {
    failures.push(
      `git history unavailable (not a checkout, or a shallow clone missing ${BASELINE}): cannot check migrations are append-only`,
    );
    return;
  }
  const files = readdirSync('migrations', { recursive: true })
    .map((f) => join('migrations', String(f)))
    .filter((f) => f.endsWith('.sql') || /_snapshot\.json$/.test(f));
  for (const file of files) {
    const added = git('log', '--diff-filter=A', '--format=%H', `${BASELINE}..HEAD`, '--', file).trim().split('\n').filter(Boolean).at(-1);
    const reference = added ?? (existsInBaseline(file) ? BASELINE : undefined);
    if (reference === undefined) continue; // new in the work tree: nothing to compare with yet
    if (git('show', `${reference}:${file}`) !== readFileSync(file, 'utf8')) {
      failures.push(`${file} differs from its committed version (${reference.slice(0, 8)}): add a new migration instead of editing one`);
    }
  }
  for (const file of git('ls-tree', '-r', '--name-only', BASELINE, '--', 'migrations').split('\n').filter(Boolean)) {
    if (!existsSync(file)) failures.push(`${file} was deleted: migrations are append-only`);
  }
  const before = JSON.parse(git('show', `${BASELINE}:${JOURNAL}`)).entries;
  const now = JSON.parse(readFileSync(JOURNAL, 'utf8')).entries;
  if (!isDeepStrictEqual(now.slice(0, before.length), before))
    failures.push(`${JOURNAL}: existing entries changed; only appending is allowed`);
}

function existsInBaseline(file) {
  try {
    git('cat-file', '-e', `${BASELINE}:${file}`);
    return true;
  } catch {
    return false;
  }
}

/** drizzle-kit generate into a copy of migrations/: any new file means the schema moved without a migration. */
function checkSchemaMatches() {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-check-'));
  try {
    const copy = join(dir, 'migrations');
    cpSync('migrations', copy, { recursive: true });
    const before = readdirSync(copy, { recursive: true }).length;
    // drizzle-kit prefixes the path with "./": give it one relative to here.
    execFileSync(
      'npx',
      ['drizzle-kit', 'generate', '--dialect', 'postgresql', '--schema', './src/schema/index.ts', '--out', relative('.', copy)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const added = readdirSync(copy, { recursive: true }).length - before;
    if (added > 0) failures.push('src/schema and migrations/ disagree: `npm run db:generate` would add a migration');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

checkAppendOnly();
checkSchemaMatches();
if (failures.length > 0) {
  for (const f of failures) process.stderr.write(`check-migrations: ${f}\n`);
  process.exit(1);
}
process.stdout.write('check-migrations: migrations append-only and in step with the schema\n');
