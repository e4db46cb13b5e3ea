// The task a worker is posted: a chunk of CSV rows goes as bytes and offsets, and comes out as the units the main
// thread had, through the structured clone a worker message takes.
import { describe, expect, it } from 'vitest';
import { packTask, unpackTask, type ScrubTask, type WorkUnit } from '../../src/workers/messages.js';

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
