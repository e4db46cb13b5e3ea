// Builds HCPCS contractor-file records for fixtures, column by column as the 2019 record layout numbers them.

/** Writes texts at 1-based columns of a 320-column record (HCPCS2019_recordlayout.txt); trailing blanks dropped. */
export function hcpcsRecord(fields: Record<number, string>): string {
  const chars = Array.from({ length: 320 }, () => ' ');
  for (const [col, text] of Object.entries(fields)) {
    [...text].forEach((ch, i) => (chars[Number(col) - 1 + i] = ch));
  }
  return chars.join('').trimEnd();
}

/** The disclaimer lines the contractor file opens with (`*` lines, an indented continuation, blank lines). */
export const HCPCS_DISCLAIMER = [
  '***Disclaimers\t\t\t\t',
  '\t\t\t\t',
  '*Inclusion or exclusion of a procedure, supply, product, or service does not imply any health insurance coverage.\u00a0\t\t',
  '\u00a0\u00a0 convey endorsement of any particular brand.\u00a0 \t\t',
  '',
  '',
];

/** A whole contractor file: disclaimer, records, CRLF line ends. */
export const hcpcsFile = (records: readonly string[]): string =>
  `${[...HCPCS_DISCLAIMER, ...records].join('\r\n')}\r\n`;
