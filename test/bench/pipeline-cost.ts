// The server's own CPU per call, without sockets: the request listener of buildServer called in this process with
// synthetic requests (a Readable carrying the body, the headers autocannon sends) and a response that only records
// its status. Loopback figures on a 2-core VM move by tens of percent from one run to the next; this one does not,
// so the http benchmark uses it to tell what authentication itself costs per call.
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pino } from 'pino';
import { createRateLimiter, formatTimestampUtc, openAccounts, sign, signableString } from '../../src/accounts/index.js';
import { hello } from '../../src/http/operations/hello.js';
import { buildServer } from '../../src/http/server.js';
import type { HttpConfig } from '../../src/schemas/http-config.js';
import { BENCH_HTTP } from './harness.js';

/** Microseconds per call of each way of calling Hello. */
export interface PipelineCost {
  /** Auth off, the signed headers sent (not looked at). */
  readonly authOff: number;
  /** A non-public Hello with auth on, signed headers (a remembered signature after the first call). */
  readonly signed: number;
  /** The same with a session token. */
  readonly session: number;
}

const BODY = Buffer.from('{"worldParam":"world"}');

/**
 * Measures the pipeline in this process: each way is called `calls` times after as many warm-up calls, in turns of
 * 10,000 calls so that all three share the machine's moments, and the fastest turn of each counts.
 * @param calls - calls per way
 */
export async function measurePipelineCost(calls = 200_000): Promise<PipelineCost> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-pipeline-'));
  const accounts = openAccounts(join(dir, 'app.sqlite'));
  const http: HttpConfig = BENCH_HTTP;
  const log = pino({ level: 'silent' });
  const listenerOf = (server: ReturnType<typeof buildServer>): ((req: IncomingMessage, res: ServerResponse) => void) =>
    server.server.listeners('request')[0] as (req: IncomingMessage, res: ServerResponse) => void;
  const open = listenerOf(buildServer({ http, resourcesDir: 'data/resources' }, { log, accounts }));
  const guarded = listenerOf(
    buildServer(
      { http: { ...http, auth: true }, resourcesDir: 'data/resources' },
      {
        log,
        accounts,
        rateLimiter: createRateLimiter({ perSecond: 1e9, burst: 1e9 }),
        operations: [{ ...hello, public: false }],
      },
    ),
  );
  const created = accounts.createApiKey({ userName: 'bench' });
  if (!created.ok) {
    throw new Error(created.message);
  }
  const { apiKey, secret } = created.value;
  const timestamp = formatTimestampUtc(Date.now());
  const signature = sign(secret, signableString(apiKey, 'bench', timestamp));
  const session = accounts.authenticate({ apiKey, userName: 'bench', timestamp, signature });
  if (!session.ok) {
    throw new Error(session.message);
  }
  const base = { host: '127.0.0.1', 'content-type': 'application/json', 'content-length': String(BODY.length) };
  const signedHeaders = {
    ...base,
    'x-api-key': apiKey,
    'x-api-user': 'bench',
    'x-api-timestamp': timestamp,
    'x-api-signature': signature,
  };
  const sessionHeaders = { ...base, 'x-svc-token': session.value.svcToken };

  const call = (
    listener: (req: IncomingMessage, res: ServerResponse) => void,
    headers: Readonly<Record<string, string>>,
  ): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = Object.assign(Readable.from([BODY], { objectMode: false }), {
        url: '/json/reply/Hello',
        method: 'POST',
        headers,
        socket: { remoteAddress: '127.0.0.1' },
      });
      const res = {
        headersSent: false,
        writeHead(status: number): void {
          this.headersSent = true;
          if (status !== 200) {
            reject(new Error(`Hello answered ${String(status)}`));
          }
        },
        end(): void {
          resolve();
        },
        destroy(): void {},
      };
      listener(req as unknown as IncomingMessage, res as unknown as ServerResponse);
    });
  const ways = [
    { listener: open, headers: signedHeaders, best: Infinity },
    { listener: guarded, headers: signedHeaders, best: Infinity },
    { listener: guarded, headers: sessionHeaders, best: Infinity },
  ];
  const turn = 10_000;
  for (let done = -calls; done < calls; done += turn) {
    for (const way of ways) {
      const t = performance.now();
      for (let i = 0; i < turn; i++) {
        await call(way.listener, way.headers);
      }
      if (done >= 0) {
        way.best = Math.min(way.best, ((performance.now() - t) * 1000) / turn);
      }
    }
  }
  accounts.close();
  rmSync(dir, { recursive: true, force: true });
  const [authOff, signedWay, sessionWay] = ways;
  return { authOff: authOff?.best ?? NaN, signed: signedWay?.best ?? NaN, session: sessionWay?.best ?? NaN };
}
