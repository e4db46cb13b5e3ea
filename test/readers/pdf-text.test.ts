import { execFileSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { pdfTextLines } from '../../src/readers/pdf-text.js';
import { makePdf, pageOfLines } from '../helpers/pdf.js';

test('reads lines top to bottom, page by page, each line\'s pieces left to right with their x', async () => {
  const pdf = makePdf([
    // Pieces written out of order on the page: the reader orders them by baseline, then by x.
    [
      { x: 90, y: 700, text: 'D12.6 Benign neoplasm of colon, unspecified' },
      { x: 36, y: 700, text: 'No Change' },
      { x: 36, y: 720, text: 'Delete' },
      { x: 140, y: 720.4, text: 'Excludes1: (K51.4-)' },
    ],
    pageOfLines([[[36, 'Add'], [175, 'second page']]]),
  ]);
  const lines = await pdfTextLines(pdf);
  // pdfjs puts a blank piece between pieces set apart on a line (kept: it is how the text reads, joined).
  expect(lines.map((l) => l.cells.map((c) => c.text).join(''))).toEqual([
    'Delete Excludes1: (K51.4-)',
    'No ChangeD12.6 Benign neoplasm of colon, unspecified',
    'Add second page',
  ]);
  const pieces = lines.map((l) => ({ page: l.page, cells: l.cells.filter((c) => c.text.trim() !== '').map((c) => [Math.round(c.x), c.text]) }));
  expect(pieces).toEqual([
    { page: 1, cells: [[36, 'Delete'], [140, 'Excludes1: (K51.4-)']] },
    { page: 1, cells: [[36, 'No Change'], [90, 'D12.6 Benign neoplasm of colon, unspecified']] },
    { page: 2, cells: [[36, 'Add'], [175, 'second page']] },
  ]);
});

test('rejects bytes that are not a PDF', async () => {
  await expect(pdfTextLines(Buffer.from('Order26\tPOAexemptCode\tDescription\r\n'))).rejects.toThrow();
});

test('pdfjs, whose legacy build replaces globals such as JSON.parse, is loaded by reading a PDF, not by importing the loaders', async () => {
  // A child process: this worker may have loaded pdfjs for the tests above. The scrub CLI imports every loader (it
  // builds a missing reference database), and its main thread parses workers' facts with JSON.parse.
  const script = [
    'const parse = JSON.parse;',
    "await import('./src/refdata/loaders/index.ts');",
    "const { pdfTextLines } = await import('./src/readers/pdf-text.ts');",
    'const untouched = JSON.parse === parse;',
    "await pdfTextLines(new Uint8Array(Buffer.from('%PDF-1.4 not really'))).catch(() => undefined);",
    'console.log(JSON.stringify({ untouched, afterRead: JSON.parse === parse }));',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  // After a read, the polyfill is in place: the test would pass vacuously if pdfjs stopped replacing JSON.parse.
  expect(JSON.parse(out.trim().split('\n').pop() ?? '')).toEqual({ untouched: true, afterRead: false });
});
