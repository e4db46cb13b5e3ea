// The scrubber's unit of work on the shared reference: claims come out in input order, one on which the engine throws
// is rejected with the error while the claims around it are scrubbed, and the counts add up.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFactsBatch } from '../../src/workers/facts-batch.js';
import type { Reference } from '../../src/reference/index.js';
import type { Claim } from '../../src/schemas/claim.js';
import type { WorkUnit } from '../../src/workers/messages.js';
import { scrubChunk } from '../../src/workers/scrub-chunk.js';
import { ClaimFrameReader } from '../../src/pipeline/finish-claims.js';
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
  it('rejects the claim the engine throws on, with the error, and scrubs the claims around it in order', async () => {
    const good1 = claimOf({ claimId: 'G1', patient: { id: 'P1' } }, ['E11.9'], ['99213']);
    // Not a claim the edge would pass (no lines array): the engine throws on it.
    const broken = { ...claimOf({ claimId: 'B1' }, ['I10'], ['99214']), lines: null } as unknown as Claim;
    const good2 = claimOf({ claimId: 'G2', patient: { id: 'P2' } }, ['J45.909'], ['99212', '94640']);
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
    const partFile = join(mkdtempSync(join(tmpdir(), 'scrub-chunk-')), 'claims.part');
    writeFileSync(partFile, result.claimFrames);
    const frames: { order: number; status: string; provider: string; head: string }[] = [];
    const reader = await ClaimFrameReader.open(partFile);
    while (await reader.next()) {
      const f = reader.frame();
      frames.push({ order: f.order, status: f.tally.status, provider: f.provider, head: f.head });
    }
    await reader.close();
    expect(frames.map((f) => [f.order, f.head.split(',')[2], f.status])).toEqual([
      [0, 'G1', 'clean'],
      [1, 'B1', 'rejected'],
      [2, 'G2', 'clean'],
    ]);
    expect(frames[1]?.provider).toBe('');
    expect(frames[0]?.provider).not.toBe('');
    // The report texts come as UTF-8 bytes (they cross to the main thread as they are).
    expect(result.rejectedCsv).toBeInstanceOf(Uint8Array);
    const rejected = new TextDecoder().decode(result.rejectedCsv as Uint8Array);
    expect(rejected).toContain('the validation engine failed on this claim');
    expect(rejected).toContain('B1');
    expect(rejected).not.toContain('G1');
    expect(result.stats.claims).toBe(3);
    expect(result.stats.claimsByStatus.rejected).toBe(1);
    expect(result.stats.linesScrubbed).toBe(3);
    // One batch for the chunk, holding the two validated claims and their lines (the rejected one has no facts).
    expect(result.facts).toHaveLength(1);
    const claims = parseFactsBatch(result.facts[0] ?? '').claims;
    expect(claims.map((row) => [row[0], row[1], (JSON.parse(row[4]) as unknown[]).length])).toEqual([
      [0, 'G1', 1],
      [2, 'G2', 2],
    ]);
    for (const ms of [result.stats.readMs, result.stats.validateMs, result.stats.renderMs]) {
      expect(ms).toBeGreaterThanOrEqual(0);
    }
  });

  it("counts a claim's revenue-only lines in claims.csv's serviceLines, with the lines the engine checked", async () => {
    const claim = claimOf({ claimId: 'I1', claimType: 'institutional', patient: { id: 'P1' } }, ['I21.4'], ['93010']);
    const result = scrubChunk(ref, {
      file: 'f.csv',
      columns: undefined,
      units: [{ t: 'item', item: { kind: 'claim', claim, file: 'f.csv', line: 2, inputLines: 3, revenueOnlyLines: 2 } }],
      checks: undefined,
      reports: { csv: true, ndjson: false },
      firstOrder: 0,
      crossClaim: false,
    });
    const partFile = join(mkdtempSync(join(tmpdir(), 'scrub-chunk-')), 'claims.part');
    writeFileSync(partFile, result.claimFrames);
    const reader = await ClaimFrameReader.open(partFile);
    expect(await reader.next()).toBe(true);
    // file, line, claimId, claimType, serviceLines
    expect(reader.frame().head.split(',').slice(0, 5)).toEqual(['f.csv', '2', 'I1', 'institutional', '3']);
    await reader.close();
    expect(result.stats.linesScrubbed).toBe(3);
  });
});
