// The scrubber's unit of work on the shared reference: claims come out in input order, one on which the engine throws
// is rejected with the error while the claims around it are scrubbed, and the counts add up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reference } from '../../src/reference/index.js';
import type { Claim } from '../../src/schemas/claim.js';
import type { WorkUnit } from '../../src/workers/messages.js';
import { scrubChunk } from '../../src/workers/scrub-chunk.js';
import { claimOf } from '../helpers/claims.js';
import { openSharedReference } from '../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
}, 600_000);
afterAll(() => {
  ref.close();
});

const unitOf = (claim: Claim, line: number, inputLines = 1): WorkUnit => ({ t: 'item', item: { kind: 'claim', claim, file: 'f.csv', line, inputLines } });

describe('scrubChunk', () => {
  it('rejects the claim the engine throws on, with the error, and scrubs the claims around it in order', () => {
    const good1 = claimOf({ claimId: 'G1' }, ['E11.9'], ['99213']);
    // Not a claim the edge would pass (no lines array): the engine throws on it.
    const broken = { ...claimOf({ claimId: 'B1' }, ['I10'], ['99214']), lines: null } as unknown as Claim;
    const good2 = claimOf({ claimId: 'G2' }, ['J45.909'], ['99212', '94640']);
    const result = scrubChunk(ref, {
      file: 'f.csv',
      columns: undefined,
      units: [unitOf(good1, 2), unitOf(broken, 3), unitOf(good2, 4, 2)],
      checks: undefined,
      reports: { csv: true, ndjson: false },
      firstOrder: 0,
      crossClaim: true,
    });
    // One claim frame per claim, in input order: a header line, the provider (none for a rejected claim), the row head.
    const frames = result.claimFrames.split(/(?<=,)(?=\d+ )/);
    expect(frames.map((f) => f.slice(f.indexOf('\n') + 1).split(',').at(-4))).toEqual(['G1', 'B1', 'G2']);
    expect(frames.map((f) => f.split(' ')[0])).toEqual(['0', '1', '2']);
    expect(frames[1]).toMatch(/^1 0 0 \d+ rejected 0 0 0 0 0 \d+\n"?f\.csv/);
    expect(result.rejectedCsv).toContain('the validation engine failed on this claim');
    expect(result.rejectedCsv).toContain('B1');
    expect(result.rejectedCsv).not.toContain('G1');
    expect(result.stats.claims).toBe(3);
    expect(result.stats.claimsByStatus.rejected).toBe(1);
    expect(result.stats.linesScrubbed).toBe(3);
    expect(result.facts.map((f) => f.claimOrder)).toEqual([0, 2]);
    for (const ms of [result.stats.readMs, result.stats.validateMs, result.stats.renderMs]) {
      expect(ms).toBeGreaterThanOrEqual(0);
    }
  });
});
