// Test helpers for the HTTP shim: a real server on 127.0.0.1 and an ephemeral port, and a raw HTTP client for
// requests fetch() would normalise (dot segments, double slashes, odd headers, chunked bodies).
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import type { HttpConfig } from '../../src/schemas/http-config.js';
import { buildServer, type ServerDeps, type WireServer } from '../../src/http/server.js';

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
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1, port 0. */
export async function startServer(
  options: { http?: Partial<HttpConfig>; deps?: Partial<ServerDeps> } = {},
): Promise<TestServer> {
  const wire = buildServer({ http: testHttpConfig(options.http) }, { log: pino({ level: 'silent' }), ...options.deps });
  await new Promise<void>((resolve) => wire.server.listen(0, '127.0.0.1', resolve));
  const { port } = wire.server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${String(port)}`, port, wire, close: () => wire.shutdown(1000) };
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
