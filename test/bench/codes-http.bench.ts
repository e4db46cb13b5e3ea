// Code and mapping operations over HTTP (issue 4 §6 b): GemsMap (`GET /json/reply/GemsMap?sourceCodeCsv=A02.1`) and
// the FHIR `$lookup` (`GET /fhir/CodeSystem/$lookup?system=…icd-10-cm&code=E11.9`) against a bare node:http server
// answering a fixed body of the same size as GemsMap's. Each server runs in its own process as `npm run serve` runs
// the product (plain node on tsc's output), each is driven for the same time by autocannon in another process over
// loopback, authentication off, median of 3 rounds. Reads the built reference database (REFDATA_DB, default
// data/build/reference.sqlite). Targets: GemsMap p99 under 5 ms at 32 connections; at least 40% of the bare
// server's requests/s.
//
// Usage: npm run bench -- codes-http [--duration=5] [--connections=32] [--rounds=3]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compileTargets, measure, medianRound, printResults, startTarget, type LoadOptions, type Result } from './load.js';
import { machineLine } from './machine.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '3' },
  },
  strict: false,
});
const duration = Math.min(Math.max(Number(values.duration) || 5, 1), 60);
const connections = Math.min(Math.max(Number(values.connections) || 32, 1), 100);
const roundCount = Math.min(Math.max(Number(values.rounds) || 3, 1), 9);
const dbPath = process.env['REFDATA_DB'] ?? 'data/build/reference.sqlite';
const opts: LoadOptions = { connections, seconds: duration };

const GEMS = '/json/reply/GemsMap?sourceCodeCsv=A02.1';
const LOOKUP = `/fhir/CodeSystem/$lookup?system=${encodeURIComponent('http://hl7.org/fhir/sid/icd-10-cm')}&code=E11.9`;

compileTargets();
// The bare server answers the real GemsMap body, read once from our server.
const dir = mkdtempSync(join(tmpdir(), 'bench-codes-http-'));
const bodyFile = join(dir, 'gems.json');
const probe = await startTarget(['reference', '--db', dbPath]);
const bareBody = await (await fetch(`${probe.info.url}${GEMS}`)).text();
await probe.stop();
writeFileSync(bodyFile, bareBody);

process.stdout.write(
  `Code operations over HTTP: ${String(roundCount)} rounds of ${String(duration)} s per target (median shown), ${String(connections)} connections, each server and autocannon in their own processes, loopback, auth off\n${machineLine()}\nreference: ${dbPath}\n\n`,
);
const rounds: Result[][] = [];
for (let round = 0; round < roundCount; round++) {
  const bare = await startTarget(['bare', '--body-file', bodyFile]);
  const row = [await measure(`bare node:http (same ${String(Buffer.byteLength(bareBody))}-byte body)`, `${bare.info.url}/`, opts)];
  await bare.stop();
  const ours = await startTarget(['reference', '--db', dbPath]);
  row.push(await measure('GemsMap A02.1, GET /json/reply/GemsMap', `${ours.info.url}${GEMS}`, opts));
  row.push(await measure('FHIR $lookup E11.9, GET', `${ours.info.url}${LOOKUP}`, opts));
  await ours.stop();
  rounds.push(row);
}
rmSync(dir, { recursive: true, force: true });

const results = medianRound(rounds);
printResults(results);
const baseRps = results[0]?.rps ?? 1;
const gems = results[1];
if (gems) {
  process.stdout.write(
    `\ntarget: GemsMap p99 < 5 ms at ${String(connections)} connections: ${gems.p99 < 5 ? 'MET' : 'MISSED'} (${gems.p99.toFixed(1)} ms)\n` +
      `target: GemsMap >= 40% of the bare server's requests/s: ${gems.rps / baseRps >= 0.4 ? 'MET' : 'MISSED'} (${((gems.rps / baseRps) * 100).toFixed(0)}%)\n`,
  );
}
