// Loaded with `node --import`: appends the URL of every module loaded through the ES module loader
// (every import, static or dynamic) to the file named by LOADED_MODULES_FILE, one a line, to check
// what a command loads.
import { register } from 'node:module';

const hook = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (process.env.LOADED_MODULES_FILE) appendFileSync(process.env.LOADED_MODULES_FILE, url + '\\n');
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
