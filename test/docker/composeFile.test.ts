import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * docker-compose.yml, checked without Docker: against the Compose specification's JSON schema
 * (as the docker-compose package ships it, schema/compose-spec.json), and for what the file promises: the `demo` profile needs no API key, and the ingester waits without one rather than
 * restarting in a loop.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const composeText = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
// The Compose specification's JSON schema, as the docker-compose package ships it.
const schema = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('docker-compose/schema/compose-spec.json'), 'utf8'),
) as object;

type Service = {
  profiles?: string[];
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, unknown>;
  restart?: string;
};
type ComposeFile = { services: Record<string, Service> };

/** The passwords .env.example asks for, set; the API key left out. */
const PASSWORDS_ONLY: Record<string, string> = {
  POSTGRES_PASSWORD: 'p1',
  INGESTER_DB_PASSWORD: 'p2',
  METABASE_READER_PASSWORD: 'p3',
  METABASE_DB_PASSWORD: 'p4',
  METABASE_ENCRYPTION_SECRET_KEY: 'k5k5k5k5k5k5k5k5',
};

/**
 * Compose's interpolation of the forms the file uses: `${VAR}`, `${VAR:-default}`,
 * `${VAR-default}`, `${VAR:?message}`, `${VAR?message}` and `$$`, in every string of the parsed
 * file. Like compose, every service is interpolated, whatever its profile; a required variable
 * that is unset (or empty, for `:?`) throws.
 */
function interpolate(node: unknown, env: Record<string, string>): unknown {
  if (typeof node === 'string') return interpolateText(node, env);
  if (Array.isArray(node)) return node.map((item) => interpolate(item, env));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, interpolate(value, env)]));
}

function interpolateText(text: string, env: Record<string, string>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g,
    (whole, name?: string, colon?: string, op?: string, arg?: string) => {
      if (whole === '$$') return '$';
      const value = env[name!];
      const missing = value === undefined || (colon === ':' && value === '');
      if (op === '?' && missing) throw new Error(`required variable ${name} is missing a value: ${arg}`);
      if (op === '-' && missing) return arg!;
      return value ?? '';
    },
  );
}

/** The services `docker compose --profile <profiles> up` starts: those without a profile, and those in one of them. */
function enabledServices(file: ComposeFile, profiles: string[]): string[] {
  return Object.entries(file.services)
    .filter(([, s]) => s.profiles === undefined || s.profiles.some((p) => profiles.includes(p)))
    .map(([name]) => name)
    .sort();
}

describe('docker-compose.yml', () => {
  // Formats (durations, ports) are compose's own, which Ajv does not know: types and keys are
  // checked. The schema names draft-07 at an https: address Ajv does not hold its meta-schema
  // under, so the schema itself is not checked against it: only the file against the schema.
  const validate = new Ajv({ strict: false, validateFormats: false, validateSchema: false, allErrors: true }).compile(schema);

  it('follows the Compose specification, as written and once interpolated', () => {
    for (const file of [parse(composeText), interpolate(parse(composeText), PASSWORDS_ONLY)]) {
      const valid = validate(file);
      expect(validate.errors ?? []).toEqual([]);
      expect(valid).toBe(true);
    }
  });

  it('the schema check can fail: a misspelt service key is refused', () => {
    const file = parse(composeText) as ComposeFile;
    (file.services.postgres as Record<string, unknown>).restart_policy = 'always';
    expect(validate(file)).toBe(false);
  });

  it('needs every password but not the API key', () => {
    expect(() => interpolate(parse(composeText), PASSWORDS_ONLY)).not.toThrow();
    const { INGESTER_DB_PASSWORD: _, ...withoutOne } = PASSWORDS_ONLY;
    expect(() => interpolate(parse(composeText), withoutOne)).toThrow(/INGESTER_DB_PASSWORD/);
  });

  it('the demo profile adds the simulator-fed service to Postgres and Metabase; the default set is unchanged', () => {
    const file = interpolate(parse(composeText), PASSWORDS_ONLY) as ComposeFile;
    expect(enabledServices(file, [])).toEqual(['ingester', 'metabase', 'metabase-db', 'postgres']);
    expect(enabledServices(file, ['demo'])).toEqual(['demo', 'ingester', 'metabase', 'metabase-db', 'postgres']);
    const demo = file.services.demo!;
    expect(demo.command).toEqual(['demo']);
    // The database Metabase reads, as the ingester's own login (no superuser).
    expect(demo.environment?.DATABASE_URL).toBe('postgres://ingester:p2@postgres:5432/prediction');
    expect(Object.keys(demo.environment ?? {})).not.toContain('PREDICTION_API_KEY');
    expect(demo.depends_on).toHaveProperty('postgres');
    expect(demo.restart).toBe('no');
    expect(file.services.ingester!.environment?.PREDICTION_API_KEY).toBe('');
  });
});

describe('the ingester image’s entry point', () => {
  // Stand-ins for node and sleep on PATH, which print how they were called.
  const bin = mkdtempSync(join(tmpdir(), 'entrypoint-'));
  for (const tool of ['node', 'sleep']) {
    writeFileSync(join(bin, tool), `#!/bin/sh\necho "${tool} $*"\n`);
    chmodSync(join(bin, tool), 0o755);
  }
  afterAll(() => rmSync(bin, { recursive: true, force: true }));

  const run = (args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) =>
      execFile(
        'sh',
        [join(ROOT, 'docker/ingester-entrypoint.sh'), ...args],
        { env: { PATH: `${bin}:/usr/bin:/bin`, DATABASE_URL: 'postgres://u:p@db/x', ...env } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      ),
    );

  it('without a key, `serve` waits and says why, rather than failing into a restart loop', async () => {
    const result = await run(['serve'], {});
    expect(result.stdout.trim()).toBe('sleep infinity');
    expect(result.stderr).toMatch(/PREDICTION_API_KEY is not set.*--profile demo/);
  });

  it('with a key, or for any other command, it runs the CLI', async () => {
    expect((await run(['serve'], { PREDICTION_API_KEY: 'k' })).stdout.trim()).toBe('node /app/dist/cli/main.js serve');
    expect((await run(['demo'], {})).stdout.trim()).toBe('node /app/dist/cli/main.js demo');
    expect((await run(['serve'], { PREDICTION_KEYLESS: 'TRUE' })).stdout.trim()).toBe('node /app/dist/cli/main.js serve');
  });
});
