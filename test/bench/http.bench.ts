// HTTP shim benchmark (issue 3 §6): a bare node:http hello-world server against our server's Hello (JSON), each
// driven for the same time by autocannon running in a separate process, over loopback only. Prints requests/s,
// p50/p99 latency and the ratio to the bare server. Target: our Hello reaches at least 60% of the bare server's
// requests/s. (Auth on/off rows come with authentication; the bench takes the hooks through buildServer's deps.)
//
// Usage: npm run bench -- http [--duration=10] [--connections=10]
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
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

async function measure(label: string, server: Server, path: string): Promise<Result> {
  const base = await listen(server);
  await load(`${base}${path}`, 1); // warm-up (JIT, connection set-up), not counted
  const r = await load(`${base}${path}`, duration);
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

// 2. Our server: routing, negotiation, body parse, binding, zod, handler, schema-driven JSON writer.
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
const ours = buildServer({ http }, { log: pino({ level: 'silent' }) });
results.push(await measure('Hello, POST /json/reply/Hello (auth off)', ours.server, '/json/reply/Hello'));

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
process.stdout.write(
  `\ntarget: Hello >= 60% of the bare server's requests/s: ${ratio >= 0.6 ? 'MET' : 'MISSED'} (${(ratio * 100).toFixed(0)}%)\n`,
);
