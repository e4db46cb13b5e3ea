// The claims part file read back: frames across read-buffer boundaries come out whole and in order, and a file cut
// inside a frame (or holding something else) is refused rather than read short.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScrubberError } from '../../src/errors.js';
import { readFileSync } from 'node:fs';
import { ClaimFrameReader, finishClaims } from '../../src/pipeline/finish-claims.js';
import { REPORTS, ReportFile } from '../../src/pipeline/run-files.js';
import { claimFrameText, claimRowHead, claimsCsvRow, withCrossClaim, type ClaimFrame } from '../../src/reports/rows.js';
import type { Finding } from '../../src/schemas/findings.js';
import { emptyStats } from '../../src/workers/messages.js';

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

/** The frames of a part file, each with its row as read. */
async function framesOf(path: string): Promise<ClaimFrame[]> {
  const out: ClaimFrame[] = [];
  const reader = await ClaimFrameReader.open(path);
  try {
    while (await reader.next()) {
      const frame = reader.frame();
      expect(reader.row().toString('utf8')).toBe(claimsCsvRow(frame.head, withCrossClaim(frame.tally, undefined)));
      out.push(frame);
    }
  } finally {
    await reader.close();
  }
  return out;
}

describe('ClaimFrameReader', () => {
  it('reads 30,000 frames (several read buffers) whole and in order, each with its claims.csv row', async () => {
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
    // A row is copied as it stands, so a damaged one is refused too: its line end, or a tail that is not the tally's.
    const joined = Buffer.from(text);
    joined[joined.indexOf('\n2 ') ] = 0x20;
    const noLineEnd = join(dir, 'no-line-end.part');
    writeFileSync(noLineEnd, joined);
    await expect(framesOf(noLineEnd)).rejects.toThrow(/claim 1 of the run's claims file is cut or malformed/);
    const otherTally = join(dir, 'other-tally.part');
    writeFileSync(otherTally, text.toString('utf8').replace(/^(\d+ \d+ \d+ \d+ \w+ )0 /, '$110 '));
    await expect(framesOf(otherTally)).rejects.toThrow(/claim 1 of the run's claims file is cut or malformed/);
    const empty = join(dir, 'empty.part');
    writeFileSync(empty, '');
    expect(await framesOf(empty)).toEqual([]);
  });
});

describe('finishClaims', () => {
  const batch = (claimId: string, severity: Finding['severity']): Finding => ({
    rule: 'batch.duplicate',
    code: 'BATCH_DUPLICATE_LINE',
    severity,
    claimId,
    lines: [1],
    codes: ['99213'],
    message: `dup ${claimId}`,
  });
  const frame = (order: number, status: 'clean' | 'warnings' | 'rejected', provider: string): ClaimFrame => ({
    order,
    bytes: [10 + order, 0, status === 'rejected' ? 7 : 0],
    tally: { status, errors: 0, warnings: status === 'warnings' ? 1 : 0, info: 0, notChecked: 0 },
    provider,
    head: claimRowHead('f.csv', order + 2, `C${String(order)}`, status === 'rejected' ? '' : 'professional', 1),
  });
  /** Position 3 is a file-structure fault: no claim, no frame. */
  const frames = [
    frame(0, 'clean', 'VA'),
    frame(1, 'clean', 'VA'),
    frame(2, 'rejected', ''),
    frame(4, 'warnings', 'MD'),
  ];

  async function finish(name: string, crossClaim: { claimOrder: number; finding: Finding }[]) {
    const out = join(dir, name);
    mkdirSync(out);
    writeFileSync(join(out, '.scrub-claims.part'), frames.map(claimFrameText).join(''));
    const findingsCsv = await ReportFile.open(join(out, 'findings.csv'), undefined, REPORTS.findingsCsv.header);
    const stats = emptyStats();
    stats.claimsByStatus = { clean: 2, warnings: 1, errors: 0, rejected: 1 };
    stats.providers = { VA: { claims: 2, errors: 0, warnings: 0 }, MD: { claims: 1, errors: 0, warnings: 1 } };
    try {
      await finishClaims(
        {
          outDir: out,
          claimsPart: join(out, '.scrub-claims.part'),
          crossClaim,
          fileOf: () => 'f.csv',
          formats: { csv: true, ndjson: false },
          sharded: true,
          findingsCsv,
          findingsNdjson: undefined,
        },
        stats,
      );
    } finally {
      await findingsCsv.close();
    }
    return { out, stats };
  }

  it("writes each claim's row with its cross-claim findings counted, moves its status, and indexes claims then batch rows", async () => {
    const { out, stats } = await finish('joined', [
      { claimOrder: 1, finding: batch('C1', 'warning') },
      { claimOrder: 1, finding: { ...batch('C1', 'error'), rule: 'batch.mue', code: 'BATCH_MUE_EXCEEDED' } },
      { claimOrder: 4, finding: batch('C4', 'warning') },
    ]);
    expect(readFileSync(join(out, 'claims.csv'), 'utf8').split('\n').slice(1, -1)).toEqual([
      'f.csv,2,C0,professional,1,clean,0,0,0,0,0',
      'f.csv,3,C1,professional,1,errors,1,1,0,0,2',
      'f.csv,4,C2,,1,rejected,0,0,0,0,0',
      'f.csv,6,C4,professional,1,warnings,0,2,0,0,1',
    ]);
    expect(stats.claimsByStatus).toEqual({ clean: 1, warnings: 1, errors: 1, rejected: 1 });
    expect(stats.providers).toEqual({
      VA: { claims: 2, errors: 1, warnings: 0 },
      MD: { claims: 1, errors: 0, warnings: 1 },
    });
    expect(stats.findings['batch.duplicate']).toEqual({ warning: 2 });
    const findings = readFileSync(join(out, 'findings.csv'), 'utf8').split('\n').slice(1, -1);
    expect(findings.map((r) => r.split(',').slice(1, 2)[0])).toEqual(['C1', 'C1', 'C4']);
    const index = readFileSync(join(out, 'shard-index.csv'), 'utf8').split('\n').slice(1, -1);
    expect(index.map((r) => r.split(',').slice(0, 2).join(','))).toEqual([
      'claim,0',
      'claim,1',
      'claim,2',
      'claim,4',
      'batch,1',
      'batch,4',
    ]);
    // The claims column holds each row's bytes, the others the frame's.
    expect(index[1]).toBe(
      `claim,1,11,0,${String(Buffer.byteLength('f.csv,3,C1,professional,1,errors,1,1,0,0,2\n'))},0`,
    );
    expect(index[2]?.endsWith(',7')).toBe(true);
  });

  it('refuses cross-claim findings of a position with no claim (the part file and the store disagree)', async () => {
    await expect(finish('out-of-step', [{ claimOrder: 3, finding: batch('C3', 'warning') }])).rejects.toThrow(
      /no claim at position 3, which has cross-claim findings/,
    );
  });
});
