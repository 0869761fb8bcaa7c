/** `--db URL` from a script's arguments (only src/config.ts reads the environment), or `fallback`. */
export function serverUrlArgument(argv: readonly string[], fallback: string): string {
  const at = argv.indexOf('--db');
  const url = at === -1 ? fallback : (argv[at + 1] ?? '');
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('--db needs a postgres:// URL of a server where this user may CREATE DATABASE');
  return url;
}
