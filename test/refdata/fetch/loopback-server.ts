// A loopback HTTP server (127.0.0.1, port 0) that serves a folder the way a mirror or CMS would, with switches for
// the failures data:fetch must survive: altered bytes, a connection dropped half-way, a server that ignores Range,
// transient 503s and redirects. Every request is logged with its Range header.
import { readFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join, resolve, sep } from 'node:path';

export interface ServedRequest {
  readonly path: string;
  readonly range: string | undefined;
  readonly status: number;
}

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`; files are at `/<relative path>`, redirects to them at `/moved/<relative path>`. */
  readonly base: string;
  readonly requests: ServedRequest[];
  /** Relative paths served with one byte altered (same length). */
  readonly corrupt: Set<string>;
  /** Relative paths whose next request gets a 200 with the full length but only half the body, then stalls. */
  readonly stallFirst: Set<string>;
  /** Relative path → number of 503 answers before serving it. */
  readonly unavailableFirst: Map<string, number>;
  /** Answer 200 with the whole file even to Range requests. */
  ignoreRange: boolean;
  /** Destroys the sockets of stalled answers (the dropped connection). */
  dropStalled(): void;
  close(): Promise<void>;
}

/** Alters one byte in the middle of `bytes` (a copy). */
export function alter(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  const i = Math.floor(copy.length / 2);
  copy[i] = (copy[i] ?? 0) ^ 0xff;
  return copy;
}

export async function startLoopbackServer(root: string): Promise<LoopbackServer> {
  const rootAbs = resolve(root);
  const requests: ServedRequest[] = [];
  const stalled: Socket[] = [];
  const state = {
    corrupt: new Set<string>(),
    stallFirst: new Set<string>(),
    unavailableFirst: new Map<string, number>(),
    ignoreRange: false,
  };

  const answer = (res: ServerResponse, path: string, range: string | undefined, status: number): void => {
    requests.push({ path, range, status });
    res.statusCode = status;
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const range = req.headers.range;
      if (url.pathname.startsWith('/moved/')) {
        answer(res, url.pathname, range, 302);
        res.setHeader('location', url.pathname.slice('/moved'.length));
        res.end();
        return;
      }
      const rel = decodeURIComponent(url.pathname.slice(1));
      const abs = resolve(join(rootAbs, rel));
      if (!abs.startsWith(rootAbs + sep)) {
        answer(res, rel, range, 403);
        res.end();
        return;
      }
      const unavailable = state.unavailableFirst.get(rel) ?? 0;
      if (unavailable > 0) {
        state.unavailableFirst.set(rel, unavailable - 1);
        answer(res, rel, range, 503);
        res.end();
        return;
      }
      let body: Buffer;
      try {
        body = await readFile(abs);
      } catch {
        answer(res, rel, range, 404);
        res.end();
        return;
      }
      if (state.corrupt.has(rel)) {
        body = alter(body);
      }
      if (state.stallFirst.delete(rel)) {
        answer(res, rel, range, 200);
        res.setHeader('content-length', body.length);
        res.write(body.subarray(0, Math.floor(body.length / 2)));
        stalled.push(req.socket);
        return;
      }
      const m = range === undefined || state.ignoreRange ? null : /^bytes=(\d+)-$/.exec(range);
      if (m) {
        const start = Number(m[1]);
        if (start >= body.length) {
          answer(res, rel, range, 416);
          res.setHeader('content-range', `bytes */${body.length}`);
          res.end();
          return;
        }
        answer(res, rel, range, 206);
        res.setHeader('content-range', `bytes ${start}-${body.length - 1}/${body.length}`);
        res.setHeader('content-length', body.length - start);
        res.end(body.subarray(start));
        return;
      }
      answer(res, rel, range, 200);
      res.setHeader('content-length', body.length);
      res.end(body);
    })();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;

  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    get corrupt() {
      return state.corrupt;
    },
    get stallFirst() {
      return state.stallFirst;
    },
    get unavailableFirst() {
      return state.unavailableFirst;
    },
    get ignoreRange() {
      return state.ignoreRange;
    },
    set ignoreRange(v: boolean) {
      state.ignoreRange = v;
    },
    dropStalled() {
      for (const s of stalled.splice(0)) {
        s.destroy();
      }
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
