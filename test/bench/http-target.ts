// A server process for the HTTP benchmarks, compiled to dist/ and run with plain node as `npm run serve` runs the
// product (see tsconfig.build.json for why not tsx). Listens on a free loopback port and prints one JSON line on
// stdout, `{ "url": … }` plus the credentials it made in `hello-auth` mode, then serves until SIGTERM.
//
//   node dist/test/bench/http-target.js bare --body-file F   node:http answering F's bytes (or a small Hello body)
//   node dist/test/bench/http-target.js hello                our server, auth off, no reference database
//   node dist/test/bench/http-target.js hello-auth           our server, auth on, Hello made non-public, no throttle
//   node dist/test/bench/http-target.js reference --db F     our server, auth off, reading the reference database F
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createRateLimiter, formatTimestampUtc, openAccounts, sign, signableString } from '../../src/accounts/index.js';
import { hello } from '../../src/http/operations/hello.js';
import { buildServer } from '../../src/http/server.js';
import { openReference, type Reference } from '../../src/reference/index.js';
import type { HttpConfig } from '../../src/schemas/http-config.js';
import { BENCH_HTTP } from './harness.js';

/** What a target prints once it listens. */
export interface TargetInfo {
  readonly url: string;
  /** hello-auth only: headers of a request signed once, valid for the next 6 minutes. */
  readonly signedHeaders?: Readonly<Record<string, string>>;
  /** hello-auth only: a session token of the same key. */
  readonly svcToken?: string;
}

const { values, positionals } = parseArgs({
  options: { 'body-file': { type: 'string' }, db: { type: 'string' } },
  allowPositionals: true,
});
const mode = positionals[0] ?? 'hello';

const http: HttpConfig = BENCH_HTTP;
const log = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'bench-target-'));
const accounts = openAccounts(join(dir, 'app.sqlite'));
let reference: Reference | undefined;
let server: Server;
let extra: Omit<TargetInfo, 'url'> = {};

switch (mode) {
  case 'bare': {
    // The least any node:http server can do for a request: drain it, answer fixed bytes.
    const file = values['body-file'];
    const body =
      file === undefined ? JSON.stringify({ hello: 'Hello, world', responseStatus: {} }) : readFileSync(file);
    const length = Buffer.byteLength(body);
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': length });
        res.end(body);
      });
    });
    break;
  }
  case 'hello':
    server = buildServer({ http, resourcesDir: 'data/resources' }, { log, accounts }).server;
    break;
  case 'hello-auth': {
    // Hello is public; a non-public copy makes every call run authentication, the rate-limit hook (with a limit the
    // load never reaches) and usage counting.
    server = buildServer(
      { http: { ...http, auth: true }, resourcesDir: 'data/resources' },
      {
        log,
        accounts,
        rateLimiter: createRateLimiter({ perSecond: 1e9, burst: 1e9 }),
        operations: [{ ...hello, public: false }],
      },
    ).server;
    const created = accounts.createApiKey({ userName: 'bench' });
    if (!created.ok) {
      throw new Error(created.message);
    }
    const { apiKey, secret } = created.value;
    const timestamp = formatTimestampUtc(Date.now() + 60_000); // within the 5-minute window for 6 minutes
    const signature = sign(secret, signableString(apiKey, 'bench', timestamp));
    const session = accounts.authenticate({ apiKey, userName: 'bench', timestamp, signature });
    if (!session.ok) {
      throw new Error(session.message);
    }
    extra = {
      signedHeaders: {
        'X-Api-Key': apiKey,
        'X-Api-User': 'bench',
        'X-Api-Timestamp': timestamp,
        'X-Api-Signature': signature,
      },
      svcToken: session.value.svcToken,
    };
    break;
  }
  case 'reference': {
    reference = openReference(values.db ?? 'data/build/reference.sqlite');
    reference.load(); // as serve does before it listens
    server = buildServer({ http, resourcesDir: 'data/resources' }, { log, accounts, reference }).server;
    break;
  }
  default:
    throw new Error(`unknown target mode ${mode}`);
}

server.listen(0, '127.0.0.1', () => {
  const info: TargetInfo = { url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`, ...extra };
  process.stdout.write(`${JSON.stringify(info)}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  const usage = accounts.usageStats();
  accounts.close();
  reference?.close();
  rmSync(dir, { recursive: true, force: true });
  process.stderr.write(`usage: ${String(usage.recorded)} calls recorded in ${String(usage.flushes)} batched writes\n`);
  process.exit(0);
});
