// The text lines of a PDF, with where each piece of text starts on its line: some official releases exist only as
// PDF (the ICD-10-CM Tabular List addenda), and their meaning is in the layout (an action column, then text
// indented by level). Read with pdfjs-dist (Mozilla's PDF.js, the maintained PDF reader for JavaScript), with
// scripting and font loading off: the file is data, never run. pdfjs is imported on first use, by a reference build
// only: its legacy build (the one for Node 20) installs core-js polyfills over globals such as JSON.parse, which a
// scrub or the server should not run under unless it builds the reference database first.

/** A piece of text as the page places it: its left edge in PDF points. */
export interface PdfCell {
  readonly x: number;
  readonly text: string;
}

/** One printed line: the cells that share a baseline, left to right. */
export interface PdfLine {
  /** Page number, from 1. */
  readonly page: number;
  readonly cells: readonly PdfCell[];
}

/** Baselines closer than this (points) are one line (pieces of one line can sit a fraction of a point apart). */
const SAME_LINE = 1.5;

/**
 * Reads a PDF's text, line by line, top to bottom and page by page.
 * @param bytes - the whole file
 * @throws Error when the bytes are not a PDF pdfjs can read
 */
export async function pdfTextLines(bytes: Uint8Array): Promise<PdfLine[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({
    // pdfjs takes ownership of (and detaches) the buffer it is given.
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: true,
    verbosity: 0,
  }).promise;
  try {
    const lines: PdfLine[] = [];
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      const rows: { y: number; cells: PdfCell[] }[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str === '') {
          continue;
        }
        const x = item.transform[4] as number;
        const y = item.transform[5] as number;
        let row = rows.find((r) => Math.abs(r.y - y) < SAME_LINE);
        if (row === undefined) {
          row = { y, cells: [] };
          rows.push(row);
        }
        row.cells.push({ x, text: item.str });
      }
      rows.sort((a, b) => b.y - a.y);
      for (const row of rows) {
        lines.push({ page: p, cells: row.cells.sort((a, b) => a.x - b.x) });
      }
      page.cleanup();
    }
    return lines;
  } finally {
    await doc.destroy();
  }
}
