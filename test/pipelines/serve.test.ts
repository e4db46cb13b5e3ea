// `npm run serve`: prints exactly one line `listening on http://HOST:PORT` on stdout once it accepts requests,
// picks a free port with --port 0, warns about --no-auth, and exits 0 on SIGTERM after finishing and flushing the
// usage counts. Then the README flow a new user follows: serve, `npm run keys -- create`, sign a request (node:crypto,
// and the curl + openssl snippet), call Entity.
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { openAccounts } from '../../src/accounts/index.js';
import { tempAppDbPath } from '../helpers/accounts.js';
import { sharedReferenceDbPath } from '../helpers/reference-db.js';

type Serve = ChildProcessByStdio<null, Readable, Readable>;

/** Servers started and not yet stopped: a test that fails before its stop leaves none behind (see afterEach). */
const running = new Set<Serve>();

/** Starts `pipelines/serve.ts` on a free port and resolves once it printed its line. */
async function serve(
  args: string[],
  env: Record<string, string>,
  entry: readonly string[] = ['--import', 'tsx', 'pipelines/serve.ts'],
): Promise<{ child: Serve; base: string; line: string; out: () => string; err: () => string }> {
  const child = spawn(
    process.execPath,
    [...entry, '--port', '0', '--host', '127.0.0.1', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
    },
  );
  running.add(child);
  child.on('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      if (stdout.includes('\n')) {
        resolve(stdout.split('\n')[0] ?? '');
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${String(code)}: ${stderr}`)));
  });
  return { child, base: line.slice('listening on '.length), line, out: () => stdout, err: () => stderr };
}

async function stop(child: Serve): Promise<number | null> {
  child.kill('SIGTERM');
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

describe('pipelines/serve.ts', () => {
  afterEach(() => {
    // A server a failed assertion left running would hold its port and memory after the run.
    for (const child of running) {
      child.kill('SIGKILL');
    }
    running.clear();
  });

  test('npm run serve runs the tsc build in dist/ with plain node: it answers and stops the same way', async () => {
    const build = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
      encoding: 'utf8',
    });
    expect(build.stdout + build.stderr).toBe('');
    expect(build.status).toBe(0);
    const s = await serve(['--no-auth'], { APP_DB: await tempAppDbPath('serve-') }, ['dist/pipelines/serve.js']);
    expect(s.line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${s.base}/json/reply/Hello`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"worldParam":"dist"}',
    });
    expect(((await res.json()) as { hello: string }).hello).toBe('Hello, dist');
    expect(await stop(s.child)).toBe(0);
    expect(s.err()).toContain('"msg":"stopped"');
  }, 60_000);

  test('listens on a free port, answers Hello, and stops on SIGTERM', async () => {
    const s = await serve(['--no-auth'], { APP_DB: await tempAppDbPath('serve-') });
    expect(s.line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.base.endsWith(':0')).toBe(false);
    const res = await fetch(`${s.base}/api/Hello?worldParam=serve`);
    const hello = (await res.json()) as { hello: string; apiUrl: string; webRoot: string };
    expect(hello.hello).toBe('Hello, serve');
    // With --port 0 the public URLs name the port the server listens on, not 0.
    expect(hello.apiUrl).toBe(`${s.base}/api`);
    expect(hello.webRoot).toBe(`${s.base}/`);
    expect(await stop(s.child)).toBe(0);
    expect(s.out()).toBe(`${s.line}\n`);
    expect(s.err()).toContain('authentication is off');
    expect(s.err()).toContain('"msg":"stopped"');
    // Each log line names its component once (the server's logger is not a child of the serve logger).
    const warning = s.err().split('\n').find((l) => l.includes('authentication is off')) ?? '';
    expect(warning.match(/"component":/g)).toEqual(['"component":']);
    // One access-log line for the call: its route template, never its query.
    const access = s.err().split('\n').filter((l) => l.includes('"msg":"request"'));
    expect(access.map((l) => JSON.parse(l) as Record<string, unknown>)).toMatchObject([
      { level: 30, component: 'http', method: 'GET', route: '/api/Hello', operation: 'Hello', status: 200 },
    ]);
    expect(s.err()).not.toContain('worldParam');
  });

  test('--warm nlp,search builds the NLP dictionary and the search index before it listens', async () => {
    const s = await serve(['--no-auth', '--warm', 'nlp,search'], {
      APP_DB: await tempAppDbPath('serve-'),
      REFDATA_DB: await sharedReferenceDbPath(),
    });
    let answer: unknown;
    try {
      const res = await fetch(`${s.base}/NLP/v2/index`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'Denies chest pain.' }),
      });
      answer = await res.json();
    } finally {
      // Stopped whatever happened: a server left behind holds its indexes (hundreds of MB) after the run.
      expect(await stop(s.child)).toBe(0);
    }
    expect((answer as { result: Record<string, string>[] }).result).toMatchObject([{ text: 'chest pain', negated: 'true' }]);
    // Both were built, and logged before the first request's access-log line: the request found them ready.
    const lines = s.err().split('\n');
    const built = lines.filter((l) => l.includes('index built before listening')).map((l) => (JSON.parse(l) as { index: string }).index);
    expect(built).toEqual(['nlp', 'search']);
    const firstRequest = lines.findIndex((l) => l.includes('"msg":"request"'));
    expect(firstRequest).toBeGreaterThan(lines.findLastIndex((l) => l.includes('index built before listening')));
  }, 120_000);

  test('rejects unknown flags with the usage and exit code 2', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'pipelines/serve.ts', '--bogus'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(2);
    expect(stderr).toContain('usage: npm run serve');
  });

  test('a missing dashboard file stops start-up with one line naming it, not a stack trace', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'pipelines/serve.ts', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, APP_DB: await tempAppDbPath('serve-'), DASHBOARD_FILE: 'data/no-such-dashboard.json' },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(2);
    expect(stderr).toContain('cannot read the dashboard content data/no-such-dashboard.json (ENOENT)');
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  test('the README flow: serve, create a key with the keys CLI, sign with node:crypto and curl, call Entity', async () => {
    const appDb = await tempAppDbPath('readme-');
    const s = await serve([], { APP_DB: appDb });
    expect(s.err()).not.toContain('authentication is off');

    // npm run keys -- create --user alice --json, against the same APP_DB while the server runs.
    const keys = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'pipelines/keys.ts', 'create', '--user', 'alice', '--json'],
      {
        encoding: 'utf8',
        env: { ...process.env, APP_DB: appDb },
      },
    );
    expect(keys.status).toBe(0);
    const { apiKey, secret, entityId } = JSON.parse(keys.stdout) as {
      apiKey: string;
      secret: string;
      entityId: number;
    };

    // Sign as the README shows with node:crypto.
    const timestamp = new Date().toISOString();
    const signature = createHmac('sha256', secret).update(`${apiKey}\nalice\n${timestamp}`).digest('base64');
    const res = await fetch(`${s.base}/json/reply/Entity`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Api-Key': apiKey,
        'X-Api-User': 'alice',
        'X-Api-Timestamp': timestamp,
        'X-Api-Signature': signature,
      },
      body: JSON.stringify({ entityName: 'My clinic' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ entityId: entityId + 1, responseStatus: {} });

    // The README's curl + openssl snippet, run as written (where both tools exist).
    const tools = spawnSync('sh', ['-c', 'command -v curl && command -v openssl && command -v base64']);
    if (tools.status === 0) {
      const curl = spawnSync('bash', ['-c', README_CURL], {
        encoding: 'utf8',
        env: { ...process.env, BASE: s.base, API_KEY: apiKey, API_USER: 'alice', API_SECRET: secret },
      });
      expect(curl.stderr).toBe('');
      expect(JSON.parse(curl.stdout)).toEqual({ entityId: entityId + 2, responseStatus: {} });
    }

    // Without a signature the same call is refused.
    const refused = await fetch(`${s.base}/json/reply/Entity`, { method: 'POST', body: '{"entityName":"x"}' });
    expect(refused.status).toBe(401);

    expect(await stop(s.child)).toBe(0);
    expect(s.err()).not.toContain(secret);
    expect(s.err()).not.toContain(signature);
    // Shutdown flushed the usage counts of the signed calls.
    const accounts = openAccounts(appDb);
    try {
      expect(accounts.fullUsageReport(entityId).find((r) => r.operation === 'Entity')?.count).toBe(
        tools.status === 0 ? 2 : 1,
      );
    } finally {
      accounts.close();
    }
  });
});

/** The curl + openssl example of the README, byte for byte (BASE, API_KEY, API_USER, API_SECRET from the env). */
const README_CURL = `TS=$(date -u +%Y-%m-%dT%H:%M:%S.000Z)
SIG=$(printf '%s\\n%s\\n%s' "$API_KEY" "$API_USER" "$TS" | openssl dgst -sha256 -hmac "$API_SECRET" -binary | base64)
curl -s "$BASE/json/reply/Entity" \\
  -H "X-Api-Key: $API_KEY" -H "X-Api-User: $API_USER" \\
  -H "X-Api-Timestamp: $TS" -H "X-Api-Signature: $SIG" \\
  -H 'Content-Type: application/json' -d '{"entityName":"My second clinic"}'`;
