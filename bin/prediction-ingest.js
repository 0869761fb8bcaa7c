#!/usr/bin/env node
// The compiled CLI: `npm ci` (through `prepare`) and `npm run build` write dist/.
await import('../dist/cli/main.js');
