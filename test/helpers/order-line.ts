/** One ICD-10 order-file record in the official fixed-width layout. */
export function orderLine(ord: number, code: string, billable: 0 | 1, short: string, long = short): string {
  return `${String(ord).padStart(5, '0')} ${code.padEnd(7)} ${billable} ${short.padEnd(60)} ${long}`;
}
