// Shared by the engine benchmarks: the common flags (`--db`, `--size`, `--date`) and a seeded sampler, so every run
// draws the same sample.
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../../src/config.js';
import { openReference, type Reference } from '../../src/reference/index.js';
import type { HttpConfig } from '../../src/schemas/http-config.js';

export interface BenchOptions {
  readonly config: Readonly<Config>;
  readonly size: number;
  readonly date: string;
}

/** Reads `--db FILE`, `--size N` (at least 1,000) and `--date YYYY-MM-DD` from argv. */
export function benchOptions(defaultSize: number): BenchOptions {
  const { values } = parseArgs({
    options: {
      db: { type: 'string' },
      size: { type: 'string', default: String(defaultSize) },
      date: { type: 'string', default: '2026-06-15' },
    },
    strict: false,
  });
  return {
    config: loadConfig(typeof values.db === 'string' ? [`--db=${values.db}`] : []),
    size: Math.max(1000, Number(values.size) || defaultSize),
    date: typeof values.date === 'string' ? values.date : '2026-06-15',
  };
}

/** The load flags of the HTTP benchmarks, clamped. */
export interface LoadFlags {
  /** `--duration S`: seconds per measured run (1-60). */
  readonly duration: number;
  /** `--connections N` (1-100). */
  readonly connections: number;
  /** `--rounds N`: rounds per target, the median shown (1-9). */
  readonly rounds: number;
}

/**
 * Reads `--duration`, `--connections` and `--rounds` from argv (other flags are left to the benchmark).
 * @param defaults - the benchmark's defaults; duration 5 s and 3 rounds unless given
 */
export function loadFlags(defaults: { readonly connections: number; readonly duration?: number; readonly rounds?: number }): LoadFlags {
  const d = { duration: 5, rounds: 3, ...defaults };
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: String(d.duration) },
      connections: { type: 'string', default: String(d.connections) },
      rounds: { type: 'string', default: String(d.rounds) },
    },
    strict: false,
  });
  const clamp = (v: unknown, fallback: number, max: number): number => Math.min(Math.max(Number(v) || fallback, 1), max);
  return {
    duration: clamp(values.duration, d.duration, 60),
    connections: clamp(values.connections, d.connections, 100),
    rounds: clamp(values.rounds, d.rounds, 9),
  };
}

/** A small deterministic PRNG (mulberry32) and a picker over it. */
export function seededSampler(initial: number): { random: () => number; pick: <T>(items: readonly T[]) => T } {
  let seed = initial;
  const random = (): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { random, pick: <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T };
}

/** The `http` configuration of every benchmark server: loopback, auth off (targets turn it on where they need it). */
export const BENCH_HTTP: HttpConfig = {
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

/**
 * Runs `fn` on a fresh connection to the reference database (nothing remembered yet: the "cold" rows), then closes
 * it.
 * @param dbPath - the built reference database
 * @param fn - the work
 */
export function withFreshReference<T>(dbPath: string, fn: (ref: Reference) => T): T {
  const ref = openReference(dbPath);
  try {
    return fn(ref);
  } finally {
    ref.close();
  }
}
