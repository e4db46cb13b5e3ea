// `npm run serve`: prints exactly one line `listening on http://HOST:PORT` on stdout once it accepts requests,
// picks a free port with --port 0, warns about --no-auth, and exits 0 on SIGTERM after finishing.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, test } from 'vitest';

describe('pipelines/serve.ts', () => {
  test('listens on a free port, answers Hello, and stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'pipelines/serve.ts', '--port', '0', '--host', '127.0.0.1', '--no-auth'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, LOG_LEVEL: 'info' },
      },
    );
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
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const base = line.slice('listening on '.length);
    expect(base.endsWith(':0')).toBe(false);
    const res = await fetch(`${base}/api/Hello?worldParam=serve`);
    expect(((await res.json()) as { hello: string }).hello).toBe('Hello, serve');
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(stdout).toBe(`${line}\n`);
    expect(stderr).toContain('authentication is off');
    expect(stderr).toContain('"msg":"stopped"');
  });

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
});
