// Mapping engine benchmark (issue 4 §6 a, the gemsMap part): gemsMap on random real codes (ICD-10-CM codes of the
// FY2018 GEM, FY2026 codes that need the conversion-table bridge, ICD-10-PCS codes and a few unknown strings, half of
// them dotted or lower-case), against a baseline measured in the same run on the same database: one raw prepared
// GEM lookup per code (`SELECT … FROM gem WHERE dataset = ? AND source = ? ORDER BY row_no`, better-sqlite3 `.all()`,
// file given), which is the floor the engine builds on (it adds titles, the bridge and the item shape).
//
// Rows: the baseline; the in-memory table load; gemsMap on one batch (cold, then asked twice more); in chunks of
// 1,000 (the worker pool's chunk size); one call per code (the HTTP shim's case: calls/s); proprietaryMap in chunks;
// primaryLookup per ICD-9-CM code.
//
// Usage: npm run bench -- mapping [--db=data/build/reference.sqlite] [--size=20000] [--date=2026-06-15]
import Database from 'better-sqlite3';
import { gemsMap, gemsMapCode, primaryLookup, proprietaryMap } from '../../src/engines/mapping/index.js';
import { openReference } from '../../src/reference/index.js';
import type { MapCodeType } from '../../src/schemas/mapping.js';
import { benchOptions, seededSampler, withFreshReference } from './harness.js';
import { machineLine } from './machine.js';

const { config, size, date } = benchOptions(20_000);
const { random, pick } = seededSampler(0x6e45);

interface Sample {
  readonly input: string;
  readonly type: MapCodeType;
  readonly dataset: 'gems-dx-i10-i9' | 'gems-pcs-i10-i9';
  readonly code: string;
  readonly kind: 'gem' | 'bridged' | 'pcs' | 'unknown';
}

// Step 1: the pools, read straight from the database.
const db = new Database(config.refdataDb, { readonly: true });
const list = (sql: string): string[] => db.prepare(sql).pluck().all({ date }) as string[];
const gemDx = list(`SELECT DISTINCT source FROM gem WHERE dataset = 'gems-dx-i10-i9'`);
const gemPcs = list(`SELECT DISTINCT source FROM gem WHERE dataset = 'gems-pcs-i10-i9'`);
const bridged = list(
  `SELECT code FROM code c WHERE system = 'ICD10CM' AND billable = 1 AND valid_from <= @date AND (valid_to IS NULL OR valid_to >= @date)
     AND NOT EXISTS (SELECT 1 FROM gem g WHERE g.dataset = 'gems-dx-i10-i9' AND g.source = c.code)`,
);
const icd9 = list(`SELECT DISTINCT source FROM gem WHERE dataset = 'gems-dx-i9-i10'`);
db.close();

const dotted = (code: string): string => (code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code);
const spell = (code: string, dot: boolean): string => {
  const r = random();
  return r < 0.5 ? code : r < 0.75 && dot ? dotted(code) : code.toLowerCase();
};

const samples: Sample[] = [];
for (let i = 0; i < size; i++) {
  const r = random();
  if (r < 0.6) {
    const code = pick(gemDx);
    samples.push({ input: spell(code, true), type: 'ICD-10 CM', dataset: 'gems-dx-i10-i9', code, kind: 'gem' });
  } else if (r < 0.7) {
    const code = pick(bridged);
    samples.push({ input: spell(code, true), type: 'ICD-10 CM', dataset: 'gems-dx-i10-i9', code, kind: 'bridged' });
  } else if (r < 0.95) {
    const code = pick(gemPcs);
    samples.push({ input: spell(code, false), type: 'ICD-10 PCS', dataset: 'gems-pcs-i10-i9', code, kind: 'pcs' });
  } else {
    const code = `${pick(gemDx).slice(0, 3)}Q9`;
    samples.push({ input: code, type: 'ICD-10 CM', dataset: 'gems-dx-i10-i9', code, kind: 'unknown' });
  }
}
const byType = new Map<MapCodeType, string[]>();
for (const s of samples) {
  const codes = byType.get(s.type);
  if (codes) {
    codes.push(s.input);
  } else {
    byType.set(s.type, [s.input]);
  }
}

const out = process.stdout;
const counts = new Map<string, number>();
for (const s of samples) {
  counts.set(s.kind, (counts.get(s.kind) ?? 0) + 1);
}
out.write(
  `mapping engine benchmark: ${size.toLocaleString('en-US')} codes on ${date} (${[...counts].map(([k, n]) => `${k} ${n}`).join(', ')}) over ${config.refdataDb}\n`,
);
out.write(`${machineLine()}\n\n`);

const rate = (n: number, ms: number, unit: string): string =>
  `${Math.round((n / ms) * 1000).toLocaleString('en-US')} ${unit}/s`;
const row = (label: string, n: number, ms: number, unit = 'codes'): void => {
  out.write(`${label.padEnd(58)} ${ms.toFixed(0).padStart(7)} ms  ${rate(n, ms, unit).padStart(18)}\n`);
};
const time = (fn: () => void): number => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};

// Step 2: the baseline, on its own connection: one raw GEM lookup per code, file given.
{
  const raw = new Database(config.refdataDb, { readonly: true });
  const stmt = raw.prepare(
    'SELECT source, target, flags, approximate, no_map, combination, scenario, choice_list FROM gem WHERE dataset = ? AND source = ? ORDER BY row_no',
  );
  const norm = samples.map((s) => [s.dataset, s.input.replace(/[.\s]/g, '').toUpperCase()] as const);
  let rows = 0;
  const once = (): void => {
    rows = 0;
    for (const [dataset, code] of norm) {
      rows += stmt.all(dataset, code).length;
    }
  };
  row('baseline: raw GEM lookups (first pass)', size, time(once));
  row('baseline: raw GEM lookups (second pass)', size, time(once));
  out.write(`  (${rows.toLocaleString('en-US')} GEM rows)\n`);
  raw.close();
}

// Step 3: the engine. gemsMap remembers answers per connection (and titles per date), so every "cold" row opens a
// fresh connection and asks each code for the first time; the warm row asks the same batch again. Each connection
// first reads its in-memory tables (code systems, GEM files: what a server or worker does at start-up), timed on its
// own row; the cold rows start after that.
{
  /** Times `fn` on a fresh connection whose tables are loaded. */
  const fresh = (fn: (r: ReturnType<typeof openReference>) => void): number =>
    withFreshReference(config.refdataDb, (r) => {
      r.load();
      return time(() => fn(r));
    });
  const ref = openReference(config.refdataDb);
  row(
    'load: code, GEM, conversion and MCE tables into memory',
    size,
    time(() => ref.load()),
  );
  const whole = (r: ReturnType<typeof openReference>): number => {
    let items = 0;
    for (const [type, codes] of byType) {
      items += gemsMap(r, codes, type, date).result.length;
    }
    return items;
  };
  let items = 0;
  row(
    'engine: gemsMap, 1 batch per code set (cold)',
    size,
    time(() => (items = whole(ref))),
  );
  // A code is remembered from its second request on (gems-map.ts): the second batch answers and keeps, the third
  // reads what was kept.
  row(
    'engine: gemsMap, same batch again (answers now kept)',
    size,
    time(() => (items = whole(ref))),
  );
  row(
    'engine: gemsMap, same batch a third time (remembered)',
    size,
    time(() => (items = whole(ref))),
  );
  row(
    'engine: gemsMap, chunks of 1,000 (cold)',
    size,
    fresh((r) => {
      for (const [type, codes] of byType) {
        for (let i = 0; i < codes.length; i += 1000) {
          gemsMap(r, codes.slice(i, i + 1000), type, date);
        }
      }
    }),
  );
  row(
    'engine: gemsMapCode, one call per code (cold)',
    size,
    fresh((r) => {
      for (const s of samples) {
        gemsMapCode(r, s.input, s.type, date);
      }
    }),
    'calls',
  );
  out.write(`  (${items.toLocaleString('en-US')} map items)\n`);
  row(
    'engine: proprietaryMap, chunks of 1,000',
    size,
    time(() => {
      for (const [type, codes] of byType) {
        for (let i = 0; i < codes.length; i += 1000) {
          proprietaryMap(ref, codes.slice(i, i + 1000), type, undefined, date);
        }
      }
    }),
  );
  const lookups = Math.min(size, 5000);
  const icd9Sample = Array.from({ length: lookups }, () => pick(icd9));
  row(
    'engine: primaryLookup, one call per ICD-9-CM code',
    lookups,
    time(() => {
      for (const code of icd9Sample) {
        primaryLookup(ref, code, date);
      }
    }),
    'calls',
  );
  ref.close();
}
