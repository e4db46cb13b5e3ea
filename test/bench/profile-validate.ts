// Profiling aid (not a benchmark): the validate bench's claims, one cold pass and one warm pass of validateClaims,
// so `node --cpu-prof --import tsx test/bench/profile-validate.ts` shows where the engine's time goes.
import { validateClaims } from '../../src/engines/validation/index.js';
import { openReference } from '../../src/reference/index.js';
import { claimMaker, loadClaimPools } from './claim-generator.js';
import { seededSampler } from './harness.js';

const db = process.env['REFDATA_DB'] ?? 'data/build/reference.sqlite';
const date = '2026-05-15';
const size = Number(process.argv[2] ?? '20000');
const sampler = seededSampler(0x0a11da7e);
const pools = loadClaimPools(db, date, undefined, sampler);
const makeClaim = claimMaker(pools, sampler, date);
const claims = Array.from({ length: size }, (_, i) => makeClaim(i + 1));
const lines = claims.reduce((n, c) => n + c.lines.length, 0);
const ref = openReference(db);
ref.load();
for (const pass of ['cold', 'warm']) {
  const t = performance.now();
  validateClaims(ref, claims);
  const ms = performance.now() - t;
  process.stderr.write(`${pass}: ${ms.toFixed(0)} ms, ${((lines / ms) * 1000).toFixed(0)} lines/s\n`);
}
