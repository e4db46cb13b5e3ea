// HTTP shim benchmark (issue 3 §6): a bare node:http hello-world server against our server's Hello (JSON) with
// authentication off and on, each driven for the same time by autocannon running in a separate process, over
// loopback only. Prints requests/s, p50/p99 latency and the ratio to the bare server. Targets: our Hello reaches at
// least 60% of the bare server's requests/s; checking signatures costs under 10% (auth on vs off).
//
// Hello is public, so for the auth-on rows the bench serves a copy of it that is not: every call then runs the
// authentication hook (signed headers: an HMAC-SHA256 and one key lookup in SQLite; or a session token: a SHA-256
// and one lookup), the rate-limit hook (a limit the load never reaches) and usage counting (batched writes). The
// headers are signed once before the run with a timestamp that stays within the 5-minute window for all of it.
//
// Usage: npm run bench -- http [--duration=10] [--connections=10]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createRateLimiter, formatTimestampUtc, openAccounts, sign, signableString } from '../../src/accounts/index.js';
import { hello } from '../../src/http/operations/hello.js';
import { buildServer } from '../../src/http/server.js';
import type { HttpConfig } from '../../src/schemas/http-config.js';
import { machineLine } from './machine.js';

const { values } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '10' } },
  strict: false,
});
const duration = Math.min(Math.max(Number(values.duration) || 10, 1), 60);
const connections = Math.min(Math.max(Number(values.connections) || 10, 1), 100);
const BODY = '{"worldParam":"world"}';

interface Result {
  readonly label: string;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
}

/** Runs autocannon in a child process against a loopback URL; the server keeps this process's event loop. */
function load(
  url: string,
  seconds: number,
  headers: Readonly<Record<string, string>>,
): Promise<{ requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number }> {
  return new Promise((resolve, reject) => {
    const args = [
      'node_modules/autocannon/autocannon.js',
      '-j',
      '-c',
      String(connections),
      '-d',
      String(seconds),
      '-m',
      'POST',
      '-H',
      'content-type=application/json',
      ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}=${value}`]),
      '-b',
      BODY,
      url,
    ];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) {
        reject(new Error(`autocannon exited ${String(code)}: ${err}`));
        return;
      }
      resolve(
        JSON.parse(out) as {
          requests: { average: number };
          latency: { p50: number; p99: number };
          non2xx: number;
          errors: number;
        },
      );
    });
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
}

async function measure(
  label: string,
  server: Server,
  path: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<Result> {
  const base = await listen(server);
  await load(`${base}${path}`, 1, headers); // warm-up (JIT, connection set-up), not counted
  const r = await load(`${base}${path}`, duration, headers);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  return { label, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

process.stdout.write(
  `HTTP shim benchmark: ${String(duration)} s per target, ${String(connections)} connections, autocannon in a separate process, loopback\n${machineLine()}\n\n`,
);

// 1. The bare server: the least any node:http server can do for this request.
const bareBody = JSON.stringify({ hello: 'Hello, world', responseStatus: {} });
const bare = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(bareBody),
    });
    res.end(bareBody);
  });
});
const results: Result[] = [await measure('bare node:http hello world', bare, '/')];

// 2. Our server: routing, negotiation, body parse, binding, zod, handler, schema-driven JSON writer; then the same
// with the authentication, rate-limit and usage hooks doing their work.
const dir = mkdtempSync(join(tmpdir(), 'bench-http-'));
const accounts = openAccounts(join(dir, 'app.sqlite'));
const log = pino({ level: 'silent' });
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
const config = { http, resourcesDir: 'data/resources' };
const ours = buildServer(config, { log, accounts });
results.push(await measure('Hello, POST /json/reply/Hello (auth off)', ours.server, '/json/reply/Hello'));

const created = accounts.createApiKey({ userName: 'bench' });
if (!created.ok) {
  throw new Error(created.message);
}
const { apiKey, secret } = created.value;
const timestamp = formatTimestampUtc(Date.now() + 60_000); // valid from 4 minutes before to 6 minutes after now
const signedHeaders = {
  'X-Api-Key': apiKey,
  'X-Api-User': 'bench',
  'X-Api-Timestamp': timestamp,
  'X-Api-Signature': sign(secret, signableString(apiKey, 'bench', timestamp)),
};
const unlimited = createRateLimiter({ perSecond: 1e9, burst: 1e9 });
const guarded = { ...hello, public: false };
const withAuth = (): ReturnType<typeof buildServer> =>
  buildServer(
    { ...config, http: { ...http, auth: true } },
    { log, accounts, rateLimiter: unlimited, operations: [guarded] },
  );
results.push(await measure('Hello (auth on: signed headers)', withAuth().server, '/json/reply/Hello', signedHeaders));
const session = accounts.authenticate({
  apiKey,
  userName: 'bench',
  timestamp,
  signature: signedHeaders['X-Api-Signature'],
});
if (!session.ok) {
  throw new Error(session.message);
}
results.push(
  await measure('Hello (auth on: X-Svc-Token session)', withAuth().server, '/json/reply/Hello', {
    'X-Svc-Token': session.value.svcToken,
  }),
);
const usage = accounts.usageStats();
accounts.close();
rmSync(dir, { recursive: true, force: true });

const baseRps = results[0]?.rps ?? 1;
const pad = (s: string, n: number): string => s.padEnd(n);
process.stdout.write(
  `${pad('target', 44)}${'req/s'.padStart(10)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'vs bare'.padStart(9)}${'non-2xx'.padStart(9)}\n`,
);
for (const r of results) {
  process.stdout.write(
    `${pad(r.label, 44)}${Math.round(r.rps).toLocaleString('en-US').padStart(10)}${r.p50.toFixed(1).padStart(9)}${r.p99.toFixed(1).padStart(9)}${`${((r.rps / baseRps) * 100).toFixed(0)}%`.padStart(9)}${String(r.non2xx + r.errors).padStart(9)}\n`,
  );
}
const ratio = (results[1]?.rps ?? 0) / baseRps;
const authCost = 1 - (results[2]?.rps ?? 0) / (results[1]?.rps ?? 1);
process.stdout.write(
  `\ntarget: Hello >= 60% of the bare server's requests/s: ${ratio >= 0.6 ? 'MET' : 'MISSED'} (${(ratio * 100).toFixed(0)}%)\n` +
    `target: signature checking costs < 10% of requests/s (signed vs auth off): ${authCost < 0.1 ? 'MET' : 'MISSED'} (${(authCost * 100).toFixed(1)}%)\n` +
    `usage counting: ${String(usage.recorded)} calls recorded in ${String(usage.flushes)} batched writes\n`,
);
