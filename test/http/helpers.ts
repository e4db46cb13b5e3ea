// Test helpers for the HTTP shim: a real server on 127.0.0.1 and an ephemeral port over an application database
// (in memory unless a path is given), signed headers as a client sends them, and a raw HTTP client for requests
// fetch() would normalise (dot segments, double slashes, odd headers, chunked bodies).
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { openAccounts, type Accounts, type AccountsOptions } from '../../src/accounts/index.js';
import type { CreatedApiKey } from '../../src/schemas/accounts.js';
import type { HttpConfig } from '../../src/schemas/http-config.js';
import { buildServer, type ServerDeps, type WireServer } from '../../src/http/server.js';
import type { Reference } from '../../src/reference/index.js';
import { issueKey, signedHeaders, tempAppDbPath } from '../helpers/accounts.js';
import { openSharedReference } from '../helpers/reference-db.js';

/** A pino destination that keeps the parsed log lines (pino's sink() idiom). */
export function logSink(): { stream: Writable; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done): void {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { stream, lines };
}

/** The committed resources folder that ResourceRequest serves. */
export const RESOURCES_DIR = 'data/resources';

/** A test configuration of the http section. */
export function testHttpConfig(overrides: Partial<HttpConfig> = {}): HttpConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    maxBodyBytes: 1024 * 1024,
    debug: false,
    auth: false,
    env: 'test',
    apiUrl: 'http://localhost:8080/api',
    webRoot: 'http://localhost:8080/',
    webRootWdb: 'http://localhost:8080/wdb/',
    ...overrides,
  };
}

/** A running test server. */
export interface TestServer {
  readonly base: string;
  readonly port: number;
  readonly wire: WireServer;
  /** The server's application database. */
  readonly accounts: Accounts;
  /** Shuts the server down, then closes the database it opened (not one passed in `deps.accounts`). */
  close(): Promise<void>;
}

/** What {@link startServer} builds the server from. */
export interface StartOptions {
  readonly http?: Partial<HttpConfig>;
  readonly deps?: Partial<ServerDeps>;
  /** The application database file. @default ':memory:' */
  readonly appDb?: string;
  /** Options of the database opened here (clock, lifetimes); the usage timer is off unless given. */
  readonly accounts?: AccountsOptions;
  /** @default RESOURCES_DIR */
  readonly resourcesDir?: string;
}

/** Starts a server on 127.0.0.1, port 0. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const owned = options.deps?.accounts === undefined;
  const accounts =
    options.deps?.accounts ??
    openAccounts(options.appDb ?? ':memory:', { usage: { flushIntervalMs: 0 }, ...options.accounts });
  const wire = buildServer(
    { http: testHttpConfig(options.http), resourcesDir: options.resourcesDir ?? RESOURCES_DIR },
    { log: pino({ level: 'silent' }), ...options.deps, accounts },
  );
  await new Promise<void>((resolve) => wire.server.listen(0, '127.0.0.1', resolve));
  const { port } = wire.server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${String(port)}`,
    port,
    wire,
    accounts,
    close: async () => {
      await wire.shutdown(1000);
      if (owned) {
        accounts.close();
      }
    },
  };
}

/**
 * The four headers of a signed call, as a client computes them.
 * @param key - the issued key (its id and secret)
 * @param userName - the user the key was issued to
 * @param atMs - the request time @default Date.now()
 */
export function signed(key: CreatedApiKey, userName: string, atMs = Date.now()): Record<string, string> {
  const s = signedHeaders(key.apiKey, userName, key.secret, atMs);
  return {
    'X-Api-Key': s.apiKey,
    'X-Api-User': s.userName,
    'X-Api-Timestamp': s.timestamp,
    'X-Api-Signature': s.signature,
  };
}

/** A reply read in full. */
export interface RawReply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** Sends one request with node:http, the path exactly as given. */
export function raw(
  port: number,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string | number>;
    body?: string | Buffer;
    chunked?: boolean;
  },
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) {
      if (options.chunked) {
        req.write(options.body);
      } else {
        req.end(options.body);
        return;
      }
    }
    req.end();
  });
}

/** Parses a JSON reply body. */
export async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

/** A server with authentication on, a temp application database and one issued key. */
export interface SignedServer extends TestServer {
  readonly key: CreatedApiKey;
  readonly userName: string;
  /** fetch() with the key's signed headers added (signed now, or at `clock()` when a clock was given). */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/**
 * Starts a server with `http.auth` on over a fresh temp database and issues a key for `userName`.
 * @param options - as for startServer; `appDb` defaults to a temp file
 * @param userName - the key's user @default 'alice'
 */
export async function startSignedServer(options: StartOptions = {}, userName = 'alice'): Promise<SignedServer> {
  const s = await startServer({
    ...options,
    http: { auth: true, ...options.http },
    appDb: options.appDb ?? (await tempAppDbPath('http-')),
  });
  const key = issueKey(s.accounts, userName);
  const clock = options.accounts?.now;
  return {
    ...s,
    key,
    userName,
    fetch: (path, init = {}) =>
      fetch(`${s.base}${path}`, {
        ...init,
        headers: { ...signed(key, userName, clock?.().getTime()), ...(init.headers as Record<string, string>) },
      }),
  };
}

/**
 * For a test file of operations that read the reference: opens the shared full reference database and starts a
 * signed server on it before the file's tests, and closes both after them.
 * @returns the handles, set once the file's `beforeAll` has run
 */
export function signedServerOnSharedReference(): { readonly s: SignedServer; readonly ref: Reference } {
  const handles = {} as { s: SignedServer; ref: Reference };
  beforeAll(async () => {
    handles.ref = await openSharedReference();
    handles.s = await startSignedServer({ deps: { reference: handles.ref } });
  });
  afterAll(async () => {
    await handles.s.close();
    handles.ref.close();
  });
  return handles;
}
