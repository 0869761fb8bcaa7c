// Builds dist/ from src/, and only what changed: TypeScript's build mode (`tsc -b`) compares the
// sources with dist/.tsbuildinfo and, when nothing changed, ends in about a second, where `tsc -p`
// (even incremental) parses every file again first (10 s and more). `npm run cli`, `npm start`
// and `npm run demo` run it before the command; `npm ci` runs it once (prepare).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Required, not imported: an import of this CommonJS module first scans its 9 MB for export names.
const ts = createRequire(import.meta.url)('typescript');

const project = join(dirname(fileURLToPath(import.meta.url)), '..', 'tsconfig.build.json');
const formatHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: ts.sys.getCurrentDirectory, getNewLine: () => ts.sys.newLine };
const report = (diagnostic) => process.stderr.write(ts.formatDiagnosticsWithColorAndContext([diagnostic], formatHost));
const host = ts.createSolutionBuilderHost(ts.sys, undefined, report, () => {});
const builder = ts.createSolutionBuilder(host, [project], {});

let errors = false;
for (let next = builder.getNextInvalidatedProject(); next !== undefined; next = builder.getNextInvalidatedProject()) {
  // A source that changed is compiled, which takes seconds: said at once rather than after a silence.
  if (next.kind === ts.InvalidatedProjectKind.Build)
    process.stderr.write('prediction-ingest: building dist/ from src/ (only what changed)…\n');
  if (next.done() !== ts.ExitStatus.Success) errors = true;
}
process.exitCode = errors ? 1 : 0;
