// The task a worker is posted: a chunk of CSV rows goes as bytes and offsets, and comes out as the units the main
// thread had, through the structured clone a worker message takes. And the counts' capped lists, whatever order the
// chunks' (or shards') counts are added in.
import { describe, expect, it } from 'vitest';
import {
  addStats,
  emptyStats,
  NOT_CHECKED_KEYS,
  packTask,
  PROVIDER_KEYS,
  unpackTask,
  type ChunkStats,
  type ScrubTask,
  type WorkUnit,
} from '../../src/workers/messages.js';

const task = (units: WorkUnit[]): ScrubTask => ({
  file: 'claims.csv',
  columns: { at: {} as never, fields: 3 },
  units,
  checks: ['ncci.mue'],
  reports: { csv: true, ndjson: false },
  firstOrder: 40,
  crossClaim: true,
});

describe('packTask / unpackTask', () => {
  it('gives the worker the units the main thread had, whatever the rows hold', () => {
    const units: WorkUnit[] = [
      { t: 'csv', group: { claimId: 'C1', records: [{ text: 'C1,1,99213', line: 2 }, { text: 'C1,2,"a, ""quoted""\nnote"', line: 3 }] } },
      // Not ASCII: byte offsets differ from character offsets from here on.
      { t: 'csv', group: { claimId: 'Ç2', records: [{ text: 'Ç2,1,Zoë 🩺', line: 5 }] } },
      { t: 'csv', group: { claimId: '', records: [{ text: '"open', line: 6, problem: 'an unclosed quote' }, { text: '', line: 7 }] } },
      { t: 'csv', group: { claimId: 'C4', records: [{ text: 'C4,1,J0739', line: 8 }] } },
    ];
    const posted = structuredClone(packTask(task(units)));
    expect(posted.units).toEqual([]);
    expect(unpackTask(posted)).toEqual(task(units));
  });

  it('posts other units as they are', () => {
    const units: WorkUnit[] = [{ t: 'json', text: '{"claimId":"N1"}', line: 1 }];
    expect(packTask(task(units))).toEqual(task(units));
    expect(unpackTask(structuredClone(packTask(task(units))))).toEqual(task(units));
  });
});

describe('addStats', () => {
  // Chunks whose not-checked kinds and providers run past the caps, in a scrambled order.
  const chunks = (): ChunkStats[] => {
    const out: ChunkStats[] = [];
    for (let c = 0; c < 12; c++) {
      const s = emptyStats();
      for (let k = 0; k < 40; k++) {
        const n = (c * 37 + k * 11) % 260;
        s.notChecked[`ncci.mue\tMUE of code ${String(n).padStart(3, '0')}`] = { claims: 1 + (n % 3), reason: `reason ${String(n)}` };
      }
      s.notChecked['lcd.coverage\tlcd index'] = { claims: 2, reason: `no index (chunk ${String(c)})` };
      for (let k = 0; k < 4_300; k++) {
        const n = ((c * 4_300 + k) * 7) % (PROVIDER_KEYS + 1_000);
        s.providers[`FL 3${String(n).padStart(6, '0')}`] = { claims: 2, errors: 1, warnings: 0 };
      }
      out.push(s);
    }
    return out;
  };
  const total = (parts: readonly ChunkStats[]): ChunkStats => {
    const into = emptyStats();
    for (const p of parts) {
      addStats(into, p);
    }
    return into;
  };
  const sorted = <T>(record: Record<string, T>): [string, T][] => Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1));

  it('keeps the same kinds and providers, with the same counts, whatever order and grouping the counts come in', () => {
    const all = chunks();
    const run = total(all);
    // Three shards (every third chunk), each summed on its own, then merged last shard first.
    const shards = [0, 1, 2].map((k) => total(all.filter((_, i) => i % 3 === k)));
    const merged = total([shards[2], shards[0], shards[1]] as ChunkStats[]);
    expect(Object.keys(run.notChecked).filter((k) => !k.endsWith('(other kinds)'))).toHaveLength(NOT_CHECKED_KEYS);
    expect(Object.keys(run.providers)).toHaveLength(PROVIDER_KEYS);
    expect(sorted(merged.notChecked)).toEqual(sorted(run.notChecked));
    expect(sorted(merged.providers)).toEqual(sorted(run.providers));
    // Nothing is lost from the counts: kinds past the cap are counted under their rule.
    const claims = (s: ChunkStats): number => Object.values(s.notChecked).reduce((n, v) => n + v.claims, 0);
    expect(claims(run)).toBe(all.reduce((n, s) => n + claims(s), 0));
    // The kinds kept are the smallest keys.
    expect(run.notChecked['ncci.mue\tMUE of code 000']).toBeDefined();
    expect(run.notChecked['ncci.mue\tMUE of code 259']).toBeUndefined();
  });
});
