/**
 * A transpiled copy of src/ (esbuild, file by file, no bundling) in a temporary directory, so the
 * CLI can be run as plain JavaScript without the tsx loader: the RSS benchmark's baseline for what
 * a compiled build would cost. migrations/ and node_modules/ are symlinked beside it, so relative
 * paths (the migrations folder) and package imports resolve as in the repository.
 */
import { mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

export interface CompiledCli {
  /** Path of the compiled src/cli/main.js. */
  main: string;
  /** The compiled bench/support/reportMaxRss.js, to preload without tsx. */
  reportMaxRss: string;
  remove(): Promise<void>;
}

export async function compileCli(repoRoot: string): Promise<CompiledCli> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-cli-'));
  try {
    const src = join(repoRoot, 'src');
    const files = (await readdir(src, { recursive: true })).filter((f) => f.endsWith('.ts')).map((f) => join(src, f));
    await build({ entryPoints: files, outbase: src, outdir: join(dir, 'src'), format: 'esm', platform: 'node', target: 'node20', logLevel: 'silent' });
    await build({ entryPoints: [join(repoRoot, 'bench', 'support', 'reportMaxRss.ts')], outdir: dir, format: 'esm', platform: 'node', logLevel: 'silent' });
    await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
    await symlink(join(repoRoot, 'migrations'), join(dir, 'migrations'));
    await symlink(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { main: join(dir, 'src', 'cli', 'main.js'), reportMaxRss: join(dir, 'reportMaxRss.js'), remove: () => rm(dir, { recursive: true, force: true }) };
}
