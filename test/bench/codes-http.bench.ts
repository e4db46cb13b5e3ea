// Code and mapping operations over HTTP (issue 4 §6 b): GemsMap (`GET /json/reply/GemsMap?sourceCodeCsv=A02.1`, then
// every FY2026 ICD-10-CM code in turn, none repeated, through test/bench/cannon.ts) and
// the FHIR `$lookup` (`GET /fhir/CodeSystem/$lookup?system=…icd-10-cm&code=E11.9`) against a bare node:http server
// answering a fixed body of the same size as GemsMap's. Each server runs in its own process as `npm run serve` runs
// the product (plain node on tsc's output), each is driven for the same time by autocannon in another process over
// loopback, authentication off, median of 3 rounds. Reads the built reference database (REFDATA_DB, default
// data/build/reference.sqlite). Targets: GemsMap p99 under 5 ms at 32 connections; at least 40% of the bare
// server's requests/s.
//
// Usage: npm run bench -- codes-http [--duration=5] [--connections=32] [--rounds=3]
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, placement, medianRound, printResults, startTarget, type LoadOptions, type Result } from './load.js';
import { loadFlags, seededSampler } from './harness.js';
import { machineLine } from './machine.js';

const { duration, connections, rounds: roundCount } = loadFlags({ connections: 32 });
const dbPath = process.env['REFDATA_DB'] ?? 'data/build/reference.sqlite';
const opts: LoadOptions = { connections, seconds: duration };

const GEMS = '/json/reply/GemsMap?sourceCodeCsv=A02.1';
const gemsOf = (code: string): string => `/json/reply/GemsMap?sourceCodeCsv=${encodeURIComponent(code)}`;

// Distinct codes: every ICD-10-CM code of the FY2026 order file in a seeded random order, so that no request of the
// measured run repeats a code (the server remembers answers; this row measures the engine reading the database).
// The warm-up asks the last 5,000 of them, the measured run the others from the start.
const distinct: string[] = (() => {
  const db = new Database(dbPath, { readonly: true });
  const codes = db
    .prepare(
      `SELECT code FROM code WHERE system = 'ICD10CM' AND valid_from <= '2026-06-15' AND (valid_to IS NULL OR valid_to >= '2026-06-15')`,
    )
    .pluck()
    .all() as string[];
  db.close();
  const { random } = seededSampler(20261121);
  for (let i = codes.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [codes[i], codes[j]] = [codes[j] as string, codes[i] as string];
  }
  return codes;
})();
const distinctRun: LoadOptions = { ...opts, paths: distinct.slice(0, -5000).map(gemsOf) };
const distinctWarmUp: LoadOptions = { ...opts, paths: distinct.slice(-5000).map(gemsOf) };
const LOOKUP = `/fhir/CodeSystem/$lookup?system=${encodeURIComponent('http://hl7.org/fhir/sid/icd-10-cm')}&code=E11.9`;

// The bare server answers the real GemsMap body, read once from our server.
const dir = mkdtempSync(join(tmpdir(), 'bench-codes-http-'));
const bodyFile = join(dir, 'gems.json');
const probe = await startTarget(['reference', '--db', dbPath]);
const bareBody = await (await fetch(`${probe.info.url}${GEMS}`)).text();
await probe.stop();
writeFileSync(bodyFile, bareBody);

process.stdout.write(
  `Code operations over HTTP: ${String(roundCount)} rounds of ${String(duration)} s per target (median shown), ${String(connections)} connections, each server and autocannon in their own processes, loopback; ${placement}, auth off\n${machineLine()}\nreference: ${dbPath}\n\n`,
);
const rounds: Result[][] = [];
for (let round = 0; round < roundCount; round++) {
  const bare = await startTarget(['bare', '--body-file', bodyFile]);
  const row = [
    await measure(
      `bare node:http (same ${String(Buffer.byteLength(bareBody))}-byte body)`,
      `${bare.info.url}/`,
      opts,
      opts,
      bare.pid,
    ),
  ];
  await bare.stop();
  const ours = await startTarget(['reference', '--db', dbPath]);
  row.push(await measure('GemsMap A02.1, GET /json/reply/GemsMap', `${ours.info.url}${GEMS}`, opts, opts, ours.pid));
  row.push(
    await measure(
      `GemsMap, ${String(distinct.length - 5000)} codes none repeated`,
      ours.info.url,
      distinctRun,
      distinctWarmUp,
      ours.pid,
    ),
  );
  row.push(await measure('FHIR $lookup E11.9, GET', `${ours.info.url}${LOOKUP}`, opts, opts, ours.pid));
  await ours.stop();
  rounds.push(row);
}
rmSync(dir, { recursive: true, force: true });

const results = medianRound(rounds);
printResults(results);
const baseRps = results[0]?.rps ?? 1;
for (const [i, label] of [
  [1, 'GemsMap, one code repeated'],
  [2, 'GemsMap, distinct codes'],
] as const) {
  const r = results[i];
  if (r) {
    process.stdout.write(
      `\ntarget: ${label}: p99 < 5 ms at ${String(connections)} connections: ${r.p99 < 5 ? 'MET' : 'MISSED'} (${r.p99.toFixed(1)} ms); ` +
        `>= 40% of the bare server's requests/s: ${r.rps / baseRps >= 0.4 ? 'MET' : 'MISSED'} (${((r.rps / baseRps) * 100).toFixed(0)}%)`,
    );
  }
}
process.stdout.write('\n');
