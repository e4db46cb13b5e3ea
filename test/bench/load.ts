// Shared by the HTTP benchmarks: server targets in their own processes (test/bench/http-target.ts, compiled by tsc
// with the benchmarks and run with plain node) and autocannon as the load generator in another, so the bench process itself only
// coordinates and every target, the bare server included, runs under the same conditions.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TargetInfo } from './http-target.js';

const TARGET_SCRIPT = 'dist/test/bench/http-target.js';

// On Linux with 2+ cores, servers run on core 0 and the load generator on core 1 (taskset), so the two never take
// turns on one core: unpinned, the same code measured ±20% from one run to the next on a 2-core VM.
const pinned =
  process.platform === 'linux' && availableParallelism() >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/** The command for a process on `core` (pinned when pinning is available). */
function onCore(core: number, args: readonly string[]): [string, string[]] {
  return pinned ? ['taskset', ['-c', String(core), process.execPath, ...args]] : [process.execPath, [...args]];
}

/** How the HTTP benchmarks place their processes, for the report. */
export const placement = pinned
  ? 'servers pinned to core 0, load generator to core 1 (taskset)'
  : 'processes not pinned (taskset unavailable)';

/** A running target. */
export interface Target {
  readonly info: TargetInfo;
  /** The target's process id (its CPU time is read from /proc around a measured run). */
  readonly pid: number | undefined;
  /** Stops the process and resolves with what it wrote to stderr (its usage counts). */
  stop(): Promise<string>;
}

/**
 * Starts a target process and waits for its JSON line.
 * @param args - the mode and its flags, as http-target.ts takes them
 */
export function startTarget(args: readonly string[]): Promise<Target> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [TARGET_SCRIPT, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('error', reject);
    const early = (code: number | null): void =>
      reject(new Error(`target ${args.join(' ')} exited ${String(code)}: ${err}`));
    child.on('exit', early);
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const nl = out.indexOf('\n');
      if (nl === -1) {
        return;
      }
      child.off('exit', early);
      const info = JSON.parse(out.slice(0, nl)) as TargetInfo;
      resolve({
        info,
        pid: child.pid,
        stop: () =>
          new Promise((done) => {
            child.on('exit', () => done(err.trim()));
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** What autocannon reports (the part the benchmarks print). */
export interface Cannon {
  readonly requests: { readonly average: number; readonly total: number };
  readonly latency: { readonly p50: number; readonly p99: number };
  readonly non2xx: number;
  readonly errors: number;
}

/** One autocannon run. */
export interface LoadOptions {
  readonly connections: number;
  readonly seconds: number;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** GET these paths in turn (relative to the URL's origin) instead of the URL's own: test/bench/cannon.ts. */
  readonly paths?: readonly string[];
}

/**
 * Drives a URL with autocannon in a child process.
 * @param url - the full URL
 * @param opts - connections, duration, method, headers, body
 */
export function load(url: string, opts: LoadOptions): Promise<Cannon> {
  let args: string[];
  let configDir: string | undefined;
  if (opts.paths !== undefined) {
    configDir = mkdtempSync(join(tmpdir(), 'bench-cannon-'));
    const config = join(configDir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({ url, connections: opts.connections, seconds: opts.seconds, paths: opts.paths }),
    );
    args = ['dist/test/bench/cannon.js', config];
  } else {
    args = [
      'node_modules/autocannon/autocannon.js',
      '-j',
      '-c',
      String(opts.connections),
      '-d',
      String(opts.seconds),
      '-m',
      opts.method ?? 'GET',
      ...Object.entries(opts.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}=${value}`]),
      ...(opts.body === undefined ? [] : ['-b', opts.body]),
      url,
    ];
  }
  return new Promise((resolve, reject) => {
    const [command, argv] = onCore(1, args);
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (configDir !== undefined) {
        rmSync(configDir, { recursive: true, force: true });
      }
      if (code === 0) {
        resolve(JSON.parse(out) as Cannon);
      } else {
        reject(new Error(`load generator exited ${String(code)}: ${err}`));
      }
    });
  });
}

/** A measured target, as the tables print it. */
export interface Result {
  readonly label: string;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly bad: number;
  /** CPU time of the server process per request answered (user + system, all threads); NaN where /proc is absent. */
  readonly cpuUs: number;
}

/** user + system CPU seconds of a process so far, from /proc (Linux); NaN elsewhere. */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) {
    return Number.NaN;
  }
  try {
    // Fields after the command name (which may hold spaces): utime is the 12th, stime the 13th.
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks, USER_HZ = 100 on Linux
  } catch {
    return Number.NaN;
  }
}

/**
 * Warms a URL up for a second (JIT, connections; not counted), then measures it.
 * @param label - the row label
 * @param url - the full URL
 * @param opts - the load
 * @param warmUp - the warm-up load, when it must differ (other paths) @default opts
 * @param pid - the server's process, whose CPU time per request is then reported
 */
export async function measure(
  label: string,
  url: string,
  opts: LoadOptions,
  warmUp: LoadOptions = opts,
  pid?: number,
): Promise<Result> {
  await load(url, { ...warmUp, seconds: 1 });
  const before = cpuSeconds(pid);
  const r = await load(url, opts);
  const cpuUs = ((cpuSeconds(pid) - before) / r.requests.total) * 1e6;
  return { label, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, bad: r.non2xx + r.errors, cpuUs };
}

/**
 * The round whose first non-baseline row has the median ratio to the baseline (the round as a whole, so the rows
 * of one table were measured together).
 * @param rounds - rows per round, the same targets in the same order
 */
export function medianRound(rounds: readonly (readonly Result[])[]): readonly Result[] {
  const ratio = (row: readonly Result[]): number => (row[1]?.rps ?? 0) / (row[0]?.rps ?? 1);
  const sorted = [...rounds].sort((a, b) => ratio(a) - ratio(b));
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? [];
}

/**
 * Prints a result table with each row's share of the first row's requests/s.
 * @param results - the rows; the first is the baseline
 */
export function printResults(results: readonly Result[]): void {
  const baseRps = results[0]?.rps ?? 1;
  process.stdout.write(
    `${'target'.padEnd(46)}${'req/s'.padStart(10)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'vs bare'.padStart(9)}${'bad'.padStart(6)}${'CPU us/req'.padStart(12)}\n`,
  );
  for (const r of results) {
    process.stdout.write(
      `${r.label.padEnd(46)}${Math.round(r.rps).toLocaleString('en-US').padStart(10)}${r.p50.toFixed(1).padStart(9)}${r.p99.toFixed(1).padStart(9)}${`${((r.rps / baseRps) * 100).toFixed(0)}%`.padStart(9)}${String(r.bad).padStart(6)}${(Number.isNaN(r.cpuUs) ? 'n/a' : r.cpuUs.toFixed(1)).padStart(12)}\n`,
    );
  }
}

/** One HTTP comparison, round after round: a bare node:http server sending a body of the same size, then our server. */
export interface AgainstBare {
  readonly rounds: number;
  /** The body the bare server sends (our server's answer to the request measured). */
  readonly bodyFile: string;
  readonly bareLabel: string;
  readonly bareOpts: LoadOptions;
  readonly label: string;
  /** The reference database our server reads (`http-target.js reference --db`). */
  readonly dbPath: string;
  /** The URL measured on our server, from its base URL. */
  readonly url: (base: string) => string;
  readonly opts: LoadOptions;
  /** A first request before the warm-up (one that builds an in-memory index, as on a fresh server). */
  readonly first?: (base: string) => Promise<unknown>;
}

/**
 * Measures the bare server and ours in each round, each in its own process.
 * @returns the median round's rows: the bare server first
 */
export async function roundsAgainstBare(c: AgainstBare): Promise<readonly Result[]> {
  const rounds: Result[][] = [];
  for (let round = 0; round < c.rounds; round++) {
    const bare = await startTarget(['bare', '--body-file', c.bodyFile]);
    const row = [await measure(c.bareLabel, `${bare.info.url}/`, c.bareOpts, undefined, bare.pid)];
    await bare.stop();
    const ours = await startTarget(['reference', '--db', c.dbPath]);
    await c.first?.(ours.info.url);
    row.push(await measure(c.label, c.url(ours.info.url), c.opts, undefined, ours.pid));
    await ours.stop();
    rounds.push(row);
  }
  return medianRound(rounds);
}
