// Fails when src/'s top-level folders (and files directly in src/) import each other in a cycle,
// even through files that form no cycle themselves: dependency-cruiser's folder rule looks at each
// folder on its own, not at a top-level folder together with its subfolders. Run by `npm run lint`.
import { execFileSync } from 'node:child_process';

const report = JSON.parse(
  execFileSync('npx', ['depcruise', 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  }),
);
const topOf = (path) => /^src\/([^/]+)/.exec(path)?.[1];
const edges = new Map();
for (const module of report.modules) {
  const from = topOf(module.source);
  if (!from) continue;
  for (const dependency of module.dependencies) {
    const to = topOf(dependency.resolved);
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from).add(to);
  }
}

// Depth-first search with colours: a grey node met again closes a cycle.
const colour = new Map();
const cycles = [];
const visit = (node, path) => {
  colour.set(node, 'grey');
  for (const next of edges.get(node) ?? []) {
    if (colour.get(next) === 'grey') cycles.push([...path.slice(path.indexOf(next)), next].join(' -> '));
    else if (!colour.has(next)) visit(next, [...path, next]);
  }
  colour.set(node, 'black');
};
for (const node of edges.keys()) if (!colour.has(node)) visit(node, [node]);

if (cycles.length > 0) {
  for (const cycle of cycles) process.stderr.write(`folder cycle in src/: ${cycle}\n`);
  process.exit(1);
}
process.stdout.write(`folder layers: no cycle among ${edges.size} top-level parts of src/\n`);
