// The counts the workers and shards send: the capped lists come out the same whatever order the chunks' (or shards')
// counts are added in.
import { describe, expect, it } from 'vitest';
import { addStats, emptyStats, NOT_CHECKED_KEYS_PER_RULE, PROVIDER_KEYS, type ChunkStats } from '../../src/workers/messages.js';

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
      // A kind whose key sorts after all of ncci.mue's (a run-wide cap kept it out as "(other kinds)").
      s.notChecked['ncd.lab\tncd-lab for 2026-05-15'] = { claims: 5, reason: 'no lab NCD list' };
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
    // Each rule keeps its own smallest kinds: the one kind of lcd.coverage and of ncd.lab is listed beside ncci.mue's
    // many.
    const listed = Object.keys(run.notChecked).filter((k) => !k.endsWith('(other kinds)'));
    expect(listed.filter((k) => k.startsWith('ncci.mue\t'))).toHaveLength(NOT_CHECKED_KEYS_PER_RULE);
    expect(listed.filter((k) => !k.startsWith('ncci.mue\t')).sort()).toEqual(['lcd.coverage\tlcd index', 'ncd.lab\tncd-lab for 2026-05-15']);
    expect(run.notChecked['ncd.lab\tncd-lab for 2026-05-15']?.claims).toBe(60);
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
