// The pure decisions of data:fetch: keep or fetch, resume offsets, what an HTTP answer means, mirrors, --only.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  backoffDelay,
  interpretResponse,
  locate,
  mirrorUrl,
  parseContentRange,
  parseMirror,
  planEntry,
  resumeOffset,
  selectSources,
} from '../../../src/refdata/fetch/plan.js';
import type { SourceEntry } from '../../../src/refdata/fetch/sources-manifest.js';

const entry: SourceEntry = {
  dataset: 'icd10cm-addenda',
  release: 'FY2023-Apr',
  file: 'icd10cm/tabular-addenda/icd10cm-addendum-April 1 2023.zip',
  sha256: 'a'.repeat(64),
  bytes: 1000,
  url: 'https://ftp.cdc.gov/x.zip',
  official: true,
};

describe('planEntry and resumeOffset', () => {
  test('keeps a file with the listed size and sha256, fetches otherwise', () => {
    expect(planEntry(entry, { finalBytes: 1000, finalSha256: 'a'.repeat(64), partBytes: null })).toEqual({
      action: 'keep',
    });
    expect(planEntry(entry, { finalBytes: 1000, finalSha256: 'b'.repeat(64), partBytes: null })).toEqual({
      action: 'fetch',
      resumeFrom: 0,
      replacing: true,
    });
    expect(planEntry(entry, { finalBytes: null, finalSha256: null, partBytes: 400 })).toEqual({
      action: 'fetch',
      resumeFrom: 400,
      replacing: false,
    });
  });

  test('resumes from the .part size unless it is longer than the file', () => {
    expect(resumeOffset(null, 1000)).toBe(0);
    expect(resumeOffset(0, 1000)).toBe(0);
    expect(resumeOffset(999, 1000)).toBe(999);
    expect(resumeOffset(1000, 1000)).toBe(1000);
    expect(resumeOffset(1001, 1000)).toBe(0);
  });
});

describe('interpretResponse', () => {
  test('200 writes from the start, whatever was asked', () => {
    expect(interpretResponse(200, 0, { contentLength: '1000' }, 1000)).toEqual({
      kind: 'write',
      offset: 0,
      announcedTotal: 1000,
    });
    expect(interpretResponse(200, 600, {}, 1000)).toEqual({ kind: 'write', offset: 0, announcedTotal: null });
  });

  test('206 appends when the range starts where asked, else starts over', () => {
    expect(interpretResponse(206, 600, { contentRange: 'bytes 600-999/1000' }, 1000)).toEqual({
      kind: 'write',
      offset: 600,
      announcedTotal: 1000,
    });
    expect(interpretResponse(206, 600, { contentRange: 'bytes 600-999/*' }, 1000)).toEqual({
      kind: 'write',
      offset: 600,
      announcedTotal: null,
    });
    expect(interpretResponse(206, 600, { contentRange: 'bytes 0-999/1000' }, 1000).kind).toBe('restart');
    expect(interpretResponse(206, 600, {}, 1000).kind).toBe('restart');
  });

  test('416 at the end of the file means the .part is complete; elsewhere it starts over', () => {
    expect(interpretResponse(416, 1000, {}, 1000)).toEqual({ kind: 'complete' });
    expect(interpretResponse(416, 700, {}, 1000).kind).toBe('restart');
  });

  test('429, 408 and 5xx are retried; other statuses fail', () => {
    expect(interpretResponse(503, 0, {}, 1000)).toEqual({ kind: 'retry', reason: 'HTTP 503' });
    expect(interpretResponse(429, 0, {}, 1000).kind).toBe('retry');
    expect(interpretResponse(408, 0, {}, 1000).kind).toBe('retry');
    expect(interpretResponse(404, 0, {}, 1000)).toEqual({ kind: 'fail', reason: 'HTTP 404' });
    expect(interpretResponse(403, 0, {}, 1000).kind).toBe('fail');
  });

  test('parseContentRange', () => {
    expect(parseContentRange('bytes 5-9/10')).toEqual({ first: 5, last: 9, total: 10 });
    expect(parseContentRange('bytes */10')).toBeNull();
    expect(parseContentRange(undefined)).toBeNull();
  });
});

describe('mirrors and selection', () => {
  test('parseMirror tells URLs from folders', () => {
    expect(parseMirror('https://mirror.example/data')).toEqual({ kind: 'http', base: 'https://mirror.example/data' });
    expect(parseMirror('file:///srv/data%20x')).toEqual({ kind: 'dir', dir: '/srv/data x' });
    expect(parseMirror('../shared/data')).toEqual({ kind: 'dir', dir: '../shared/data' });
    expect(() => parseMirror(' ')).toThrow(TypeError);
  });

  test('an HTTP mirror URL is base + percent-encoded relative path', () => {
    const expected = 'http://h/m/icd10cm/tabular-addenda/icd10cm-addendum-April%201%202023.zip';
    expect(mirrorUrl('http://h/m', entry.file)).toBe(expected);
    expect(mirrorUrl('http://h/m/', entry.file)).toBe(expected);
  });

  test('locate prefers the mirror, then the official URL, else says why not', () => {
    expect(locate(entry)).toEqual({ kind: 'http', url: 'https://ftp.cdc.gov/x.zip' });
    expect(locate(entry, { kind: 'dir', dir: '/m' })).toEqual({
      kind: 'file',
      path: join('/m', 'icd10cm', 'tabular-addenda', 'icd10cm-addendum-April 1 2023.zip'),
    });
    expect(locate({ ...entry, url: null, note: 'derived; obtain from the mirror' })).toEqual({
      kind: 'none',
      reason: 'derived; obtain from the mirror',
    });
  });

  test('selectSources filters by dataset and reports unknown names', () => {
    const other = { ...entry, dataset: 'hcpcs', file: 'hcpcs/x.zip' };
    expect(selectSources([entry, other]).selected).toHaveLength(2);
    expect(selectSources([entry, other], ['hcpcs', 'nope'])).toEqual({ selected: [other], unknown: ['nope'] });
  });

  test('backoff doubles and is capped', () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelay(a, 1000, 10_000))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
  });
});
