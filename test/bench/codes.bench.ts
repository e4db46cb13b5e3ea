// Code engine benchmark (issue 4 §6 a): codeDetails on 100,000 random real code strings (valid, header, deleted and
// malformed, mixed across ICD-10-CM, ICD-10-PCS, ICD-9-CM and HCPCS, half of them dotted or lower-case), against a
// baseline measured in the same run on the same database: one raw prepared-statement point lookup per string
// (`SELECT … FROM code WHERE system = ? AND code = ?`, better-sqlite3 `.get()`, system given). Target: ≥ 200,000
// codes/s on one core.
//
// Rows: the baseline; the engine on one batch of 100,000 with the code set detected (cold: first call on a fresh
// connection, then warm); the engine in chunks of 1,000 (the worker pool's chunk size); the engine with the code set
// named per chunk.
//
// Usage: npm run bench -- codes [--db=data/build/reference.sqlite] [--size=100000] [--date=2026-06-15]
import Database from 'better-sqlite3';
import { codeDetails } from '../../src/engines/codes/index.js';
import type { openReference } from '../../src/reference/index.js';
import { CodeSystem } from '../../src/schemas/code-systems.js';
import { benchOptions, seededSampler, withFreshReference } from './harness.js';
import { machineLine } from './machine.js';

const { config, size, date } = benchOptions(100_000);
const { random, pick } = seededSampler(0x5eed);
/** `a 3, b 5` counts of a key over a list (Object.groupBy is not in Node 20). */
const tally = <T>(items: readonly T[], key: (item: T) => string): string => {
  const counts = new Map<string, number>();
  for (const item of items) {
    counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} ${n.toLocaleString('en-US')}`).join(', ');
};

interface Sample {
  readonly input: string;
  readonly system: CodeSystem;
  readonly code: string;
  readonly kind: 'valid' | 'header' | 'deleted' | 'malformed';
}

// Step 1: the pools, read straight from the database.
const db = new Database(config.refdataDb, { readonly: true });
const pool = (sql: string): { system: CodeSystem; code: string }[] =>
  db.prepare(sql).all({ date }) as { system: CodeSystem; code: string }[];
const inForce = 'valid_from <= @date AND (valid_to IS NULL OR valid_to >= @date)';
const valid = pool(
  `SELECT system, code FROM code WHERE system IN ('ICD10CM', 'ICD10PCS', 'HCPCS') AND billable = 1 AND ${inForce}`,
);
const headers = pool(
  `SELECT system, code FROM code WHERE system IN ('ICD10CM', 'ICD10PCS') AND billable = 0 AND ${inForce}`,
);
const deletedSql = `SELECT system, code FROM code c WHERE valid_to < @date AND NOT EXISTS (
     SELECT 1 FROM code d WHERE d.system = c.system AND d.code = c.code AND d.valid_from > c.valid_from)`;
// Deleted: half ICD-10 and HCPCS codes dropped or terminated, half ICD-9-CM codes (ended 2015-09-30).
const deletedRecent = pool(`${deletedSql} AND system NOT LIKE 'ICD9%'`);
const deletedIcd9 = pool(`${deletedSql} AND system LIKE 'ICD9%'`);
db.close();

const dotted = (system: CodeSystem, code: string): string =>
  (system === CodeSystem.ICD10CM || system === CodeSystem.ICD9CM_DX) && code.length > 3
    ? `${code.slice(0, 3)}.${code.slice(3)}`
    : code;
/** Half the strings as a claim file writes them (undotted), a quarter dotted, a quarter lower-case. */
const spell = (system: CodeSystem, code: string): string => {
  const r = random();
  return r < 0.5 ? code : r < 0.75 ? dotted(system, code) : code.toLowerCase();
};
/** Malformed strings: a dropped placeholder X, a truncated or overlong code, a typo, plain garbage. */
const malform = (system: CodeSystem, code: string): string => {
  const r = random();
  if (r < 0.25 && code.includes('X')) {
    return code.replace('X', '');
  }
  if (r < 0.5) {
    return `${code}${pick(['1', 'Z', '99'])}`;
  }
  if (r < 0.75) {
    return `${code.slice(0, 2)}-${code.slice(2)}`;
  }
  return pick(['', 'N/A', '???', '12', 'ICD', '9999999999', `${system}`]);
};

const samples: Sample[] = [];
for (let i = 0; i < size; i++) {
  const r = random();
  if (r < 0.7) {
    const c = pick(valid);
    samples.push({ input: spell(c.system, c.code), ...c, kind: 'valid' });
  } else if (r < 0.85) {
    const c = pick(headers);
    samples.push({ input: spell(c.system, c.code), ...c, kind: 'header' });
  } else if (r < 0.9) {
    const c = pick(random() < 0.5 ? deletedRecent : deletedIcd9);
    samples.push({ input: spell(c.system, c.code), ...c, kind: 'deleted' });
  } else {
    const c = pick(valid);
    samples.push({ input: malform(c.system, c.code), ...c, kind: 'malformed' });
  }
}
const inputs = samples.map((s) => s.input);

const out = process.stdout;
out.write(
  `code engine benchmark: ${size.toLocaleString('en-US')} codes on ${date} (${tally(samples, (s) => s.kind)}) over ${config.refdataDb}\n`,
);
out.write(
  `pools: ${valid.length} valid, ${headers.length} header, ${deletedRecent.length} + ${deletedIcd9.length} (ICD-9) deleted codes\n${machineLine()}\n\n`,
);

const rate = (n: number, ms: number): string => `${Math.round((n / ms) * 1000).toLocaleString('en-US')} codes/s`;
const row = (label: string, n: number, ms: number): void => {
  out.write(`${label.padEnd(58)} ${ms.toFixed(0).padStart(7)} ms  ${rate(n, ms).padStart(18)}\n`);
};
const time = (fn: () => void): number => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};

let baselineRate = 0;

// Step 2: the baseline, on its own connection: one point lookup per string, system given.
{
  const raw = new Database(config.refdataDb, { readonly: true });
  const stmt = raw.prepare(
    'SELECT code, valid_from, valid_to, billable, short_title, long_title FROM code WHERE system = ? AND code = ? AND valid_from <= ? AND (valid_to IS NULL OR valid_to >= ?)',
  );
  const norm = samples.map((s) => [s.system, s.input.replace(/[.\s]/g, '').toUpperCase()] as const);
  let found = 0;
  const once = (): void => {
    found = 0;
    for (const [system, code] of norm) {
      found += stmt.get(system, code, date, date) === undefined ? 0 : 1;
    }
  };
  row('baseline: raw point lookups (first pass)', size, time(once));
  const second = time(once);
  baselineRate = (size / second) * 1000;
  row('baseline: raw point lookups (second pass)', size, second);
  out.write(`  (${found.toLocaleString('en-US')} of ${size.toLocaleString('en-US')} found on the date)\n`);
  raw.close();
}

// Step 3: the engine. "Cold" rows open a fresh connection: no answer remembered, the engine's per-date MCE index and
// 7th-character index not yet built. The connection's lookup tables (code systems, GEM files, conversion table, MCE
// lists) are read into memory once (a server or worker does it at start-up, `ref.load()`); the first row times that
// load alone, the next the first batch including it, and the other cold rows start after it. The warm row asks the
// same batch again on the same connection (answers are remembered per date).
const fresh = <T>(fn: (ref: ReturnType<typeof openReference>) => T): T => withFreshReference(config.refdataDb, fn);
fresh((ref) => {
  row(
    'load: code, GEM, conversion and MCE tables into memory',
    size,
    time(() => ref.load()),
  );
});
fresh((ref) => {
  row(
    'engine: codeDetails, 1 batch, detected, tables not loaded',
    size,
    time(() => codeDetails(ref, inputs, date)),
  );
});
fresh((ref) => {
  ref.load();
  let details = codeDetails(ref, [], date);
  const cold = time(() => (details = codeDetails(ref, inputs, date)));
  row('engine: codeDetails, 1 batch, code set detected (cold)', size, cold);
  row(
    'engine: codeDetails, 1 batch, code set detected (warm)',
    size,
    time(() => codeDetails(ref, inputs, date)),
  );
  out.write(
    `  (${details.length.toLocaleString('en-US')} details, ${tally(details, (d) => d.reasonCode ?? 'valid')}; cold ${(((size / cold) * 1000) / baselineRate).toFixed(1)}x the baseline)\n`,
  );
});
fresh((ref) => {
  ref.load();
  const chunked = (): void => {
    for (let i = 0; i < inputs.length; i += 1000) {
      codeDetails(ref, inputs.slice(i, i + 1000), date);
    }
  };
  row('engine: codeDetails, chunks of 1,000, detected (cold)', size, time(chunked));
});
fresh((ref) => {
  ref.load();
  // With the code set named: the strings of each system in their own calls.
  const bySystem = new Map<CodeSystem, string[]>();
  for (const s of samples) {
    const list = bySystem.get(s.system);
    if (list) {
      list.push(s.input);
    } else {
      bySystem.set(s.system, [s.input]);
    }
  }
  const named = (): void => {
    for (const [system, codes] of bySystem) {
      for (let i = 0; i < codes.length; i += 1000) {
        codeDetails(ref, codes.slice(i, i + 1000), date, system);
      }
    }
  };
  row('engine: codeDetails, chunks of 1,000, code set named (cold)', size, time(named));
});
