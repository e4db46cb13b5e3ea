// Writes small PDFs for fixtures: pages of text pieces placed at (x, y) in Helvetica, as the CDC's addenda PDFs
// place an action column and indented tabular text (8-point type, as their action column: pdfjs joins pieces set closer than
// about a word space into one). Only what a text reader needs (no images, no font program).

/** A piece of text at a position (PDF points, origin bottom left). */
export interface PdfPiece {
  readonly x: number;
  readonly y: number;
  readonly text: string;
}

const escape = (text: string): string => text.replace(/[\\()]/g, (c) => `\\${c}`);

/**
 * Builds a PDF holding the given pages.
 * @param pages - each page's pieces
 * @returns the file's bytes
 */
export function makePdf(pages: readonly (readonly PdfPiece[])[]): Buffer {
  const objects: string[] = [];
  const add = (body: string): number => objects.push(body);
  const catalog = add('');
  const pagesId = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const pieces of pages) {
    const content = pieces.map((p) => `BT /F1 8 Tf 1 0 0 1 ${p.x} ${p.y} Tm (${escape(p.text)}) Tj ET`).join('\n');
    const contentId = add(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${contentId} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R >>`;
  objects[pagesId - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let text = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(text, 'latin1'));
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(text, 'latin1');
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  text += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  text += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

/**
 * Lays out lines top-down on one page, 14 points apart, from y = 740.
 * @param lines - each line's pieces as [x, text] pairs
 */
export function pageOfLines(lines: readonly (readonly [number, string][])[]): PdfPiece[] {
  return lines.flatMap((cells, i) => cells.map(([x, text]) => ({ x, y: 740 - i * 14, text })));
}
