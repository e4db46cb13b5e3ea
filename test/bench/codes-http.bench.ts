// Code and mapping operations over HTTP (issue 4 §6 b): GemsMap (`GET /json/reply/GemsMap?sourceCodeCsv=A02.1`) and
// the FHIR `$lookup` (`GET /fhir/CodeSystem/$lookup?system=…icd-10-cm&code=E11.9`) against a bare node:http server
// answering a fixed body of the same size as GemsMap's, each driven for the same time by autocannon in a separate
// process over loopback, authentication off. Reads the built reference database (REFDATA_DB, default
// data/build/reference.sqlite). Targets: GemsMap p99 under 5 ms at 32 connections; at least 40% of the bare
// server's requests/s.
//
// Usage: npm run bench -- codes-http [--duration=10] [--connections=32]
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { openAccounts } from '../../src/accounts/index.js';
import { buildServer } from '../../src/http/server.js';
import { openReference } from '../../src/reference/index.js';
import type { HttpConfig } from '../../src/schemas/http-config.js';
import { machineLine } from './machine.js';

const { values } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '32' } },
  strict: false,
});
const duration = Math.min(Math.max(Number(values.duration) || 10, 1), 60);
const connections = Math.min(Math.max(Number(values.connections) || 32, 1), 100);

interface Result {
  readonly label: string;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly bad: number;
}

interface Cannon {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}

function load(url: string, seconds: number): Promise<Cannon> {
  return new Promise((resolve, reject) => {
    const args = ['node_modules/autocannon/autocannon.js', '-j', '-c', String(connections), '-d', String(seconds), url];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Cannon) : reject(new Error(`autocannon exited ${String(code)}: ${err}`))));
  });
}

async function measure(label: string, server: Server, path: string): Promise<Result> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  await load(`${base}${path}`, 1); // warm-up, not counted
  const r = await load(`${base}${path}`, duration);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  return { label, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, bad: r.non2xx + r.errors };
}

const dbPath = process.env['REFDATA_DB'] ?? 'data/build/reference.sqlite';
const reference = openReference(dbPath);
const accounts = openAccounts(':memory:');
const http: HttpConfig = {
  port: 0,
  host: '127.0.0.1',
  maxBodyBytes: 1024 * 1024,
  debug: false,
  auth: false,
  env: 'bench',
  apiUrl: 'http://127.0.0.1/api',
  webRoot: 'http://127.0.0.1/',
  webRootWdb: 'http://127.0.0.1/',
};
const ours = (): Server =>
  buildServer({ http, resourcesDir: 'data/resources' }, { log: pino({ level: 'silent' }), accounts, reference }).server;

const GEMS = '/json/reply/GemsMap?sourceCodeCsv=A02.1';
const LOOKUP = `/fhir/CodeSystem/$lookup?system=${encodeURIComponent('http://hl7.org/fhir/sid/icd-10-cm')}&code=E11.9`;

// The bare server answers the real GemsMap body, read once from our server.
const probe = ours();
await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
const bareBody = await (await fetch(`http://127.0.0.1:${String((probe.address() as AddressInfo).port)}${GEMS}`)).text();
await new Promise<void>((resolve) => probe.close(() => resolve()));
probe.closeAllConnections();
const bare = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(bareBody) });
  res.end(bareBody);
});

process.stdout.write(
  `Code operations over HTTP: ${String(duration)} s per target, ${String(connections)} connections, autocannon in a separate process, loopback, auth off\n${machineLine()}\nreference: ${dbPath}\n\n`,
);
const results: Result[] = [
  await measure(`bare node:http (same ${String(Buffer.byteLength(bareBody))}-byte body)`, bare, '/'),
  await measure('GemsMap A02.1, GET /json/reply/GemsMap', ours(), GEMS),
  await measure('FHIR $lookup E11.9, GET', ours(), LOOKUP),
];
accounts.close();
reference.close();

const baseRps = results[0]?.rps ?? 1;
process.stdout.write(
  `${'target'.padEnd(46)}${'req/s'.padStart(10)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'vs bare'.padStart(9)}${'bad'.padStart(6)}\n`,
);
for (const r of results) {
  process.stdout.write(
    `${r.label.padEnd(46)}${Math.round(r.rps).toLocaleString('en-US').padStart(10)}${r.p50.toFixed(1).padStart(9)}${r.p99.toFixed(1).padStart(9)}${`${((r.rps / baseRps) * 100).toFixed(0)}%`.padStart(9)}${String(r.bad).padStart(6)}\n`,
  );
}
const gems = results[1];
if (gems) {
  process.stdout.write(
    `\ntarget: GemsMap p99 < 5 ms at ${String(connections)} connections: ${gems.p99 < 5 ? 'MET' : 'MISSED'} (${gems.p99.toFixed(1)} ms)\n` +
      `target: GemsMap >= 40% of the bare server's requests/s: ${gems.rps / baseRps >= 0.4 ? 'MET' : 'MISSED'} (${((gems.rps / baseRps) * 100).toFixed(0)}%)\n`,
  );
}
