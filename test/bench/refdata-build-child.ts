// Child process of the refdata benchmark: one full forced build, then its figures as JSON on stdout. A fresh
// process per build so peak RSS is the build's own.
import { buildReference } from '../../src/refdata/builder/builder.js';
import { allLoaders, skipRules } from '../../src/refdata/loaders/index.js';

const [sourcesDir, dbPath] = process.argv.slice(2) as [string, string];
const started = performance.now();
const result = await buildReference({ sourcesDir, dbPath, loaders: allLoaders, skipRules, bundledDir: 'data/reference', force: true });
const ms = performance.now() - started;
process.stdout.write(`${JSON.stringify({ ms, maxRssKb: process.resourceUsage().maxRSS, units: result.units, skipped: result.skipped.length })}\n`);
