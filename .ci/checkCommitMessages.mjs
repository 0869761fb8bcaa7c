// Fails when a commit made after BASELINE has a subject longer than 72 characters or no body: the
// subject is what `git log --oneline` and every tool's list show, the body says why. Merge commits
// are left out (git writes their subject). Run by `npm run lint`; needs a git checkout with history.
import { execFileSync } from 'node:child_process';

/** The last commit before this rule: commits up to it keep the subjects they were written with. */
const BASELINE = '486bc7537879d98a1ff75adcc290018247a834b8';
const MAX_SUBJECT_CHARS = 72;

const git = (...args) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

try {
  git('cat-file', '-e', `${BASELINE}^{commit}`);
} catch {
  if (git('rev-parse', '--is-shallow-repository').trim() === 'true') {
    process.stdout.write(`commit messages: not checked, a shallow clone does not hold ${BASELINE.slice(0, 12)}\n`);
    process.exit(0);
  }
  process.stderr.write(`commit messages: ${BASELINE.slice(0, 12)} is not in this repository's history\n`);
  process.exit(1);
}

// One record per commit: hash, subject, body, separated by unit and record separators.
const log = git('log', '--no-merges', '--format=%H%x1f%s%x1f%b%x1e', `${BASELINE}..HEAD`);
const failures = [];
let count = 0;
for (const record of log.split('\x1e')) {
  const [hash, subject, body] = record.replace(/^\n/, '').split('\x1f');
  if (!hash) continue;
  count += 1;
  const short = hash.slice(0, 12);
  if ([...subject].length > MAX_SUBJECT_CHARS)
    failures.push(`${short} subject of ${[...subject].length} characters (${MAX_SUBJECT_CHARS} at most): ${subject}`);
  if (!body?.trim()) failures.push(`${short} has no body saying why: ${subject}`);
}
if (failures.length > 0) {
  for (const failure of failures) process.stderr.write(`commit message: ${failure}\n`);
  process.exit(1);
}
process.stdout.write(
  `commit messages: ${count} commits since ${BASELINE.slice(0, 12)}, subjects of ${MAX_SUBJECT_CHARS} characters at most, each with a body\n`,
);
