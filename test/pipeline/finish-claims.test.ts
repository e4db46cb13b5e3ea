// The claims part file read back: frames across read-buffer boundaries come out whole and in order, and a file cut
// inside a frame (or holding something else) is refused rather than read short.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScrubberError } from '../../src/errors.js';
import { readClaimFrames } from '../../src/pipeline/finish-claims.js';
import { claimFrameText, claimRowHead, type ClaimFrame } from '../../src/reports/rows.js';

const dir = mkdtempSync(join(tmpdir(), 'finish-claims-'));

function frameOf(order: number): ClaimFrame {
  return {
    order,
    bytes: [order % 7, 0, order % 3],
    tally: { status: order % 5 === 0 ? 'rejected' : 'clean', errors: 0, warnings: 0, info: order % 2, notChecked: 1 },
    provider: order % 5 === 0 ? '' : `contractor ${String(order % 11)}`,
    // Multi-byte text and line breaks inside a frame's texts.
    head: claimRowHead(`night-é-${'x'.repeat(order % 90)}.csv`, order + 2, `C\n${String(order)}`, 'professional', 1),
  };
}

async function framesOf(path: string): Promise<ClaimFrame[]> {
  const out: ClaimFrame[] = [];
  for await (const batch of readClaimFrames(path)) {
    out.push(...batch);
  }
  return out;
}

describe('readClaimFrames', () => {
  it('reads 30,000 frames (several read buffers) whole and in order', async () => {
    const frames = Array.from({ length: 30_000 }, (_, i) => frameOf(i));
    const path = join(dir, 'whole.part');
    writeFileSync(path, frames.map(claimFrameText).join(''));
    expect(await framesOf(path)).toEqual(frames);
  });

  it('refuses a file cut inside a frame, and one that holds no frames', async () => {
    const text = Buffer.from([frameOf(1), frameOf(2)].map(claimFrameText).join(''), 'utf8');
    const cut = join(dir, 'cut.part');
    writeFileSync(cut, text.subarray(0, text.length - 3));
    const error = await framesOf(cut).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScrubberError);
    expect((error as Error).message).toMatch(/claim 2 of the run's claims file is cut or malformed/);
    const other = join(dir, 'other.part');
    writeFileSync(other, 'file,line,claimId\nx.csv,2,C1\n');
    await expect(framesOf(other)).rejects.toThrow(/claim 1 of the run's claims file is cut or malformed/);
    const empty = join(dir, 'empty.part');
    writeFileSync(empty, '');
    expect(await framesOf(empty)).toEqual([]);
  });
});
