// Claim files are UTF-8 (issue 12 section 2). Bytes that are not decode to U+FFFD, the replacement character: two
// patient ids that differ only there (MÜLLER and MÖLLER written in Latin-1) would become one. A line holding U+FFFD
// is therefore unreadable, whether it came from a bad byte or was written so (never a real claim value).

/** Why such a line is rejected. */
export const NOT_UTF8 = 'the line holds bytes that are not UTF-8 text (read as U+FFFD): save the file as UTF-8';

/** Whether decoded text holds the replacement character. */
export function notUtf8(text: string): boolean {
  return text.includes('\uFFFD');
}

/** Why a line holding a NUL byte is rejected: no claim value holds one; the line is binary data or damaged. */
export const NUL_BYTE = 'the line holds a NUL byte (binary data in a text file?)';

/** Why a decoded line cannot be read as claim text ({@link NOT_UTF8}, {@link NUL_BYTE}), if it cannot. */
export function textProblem(text: string): string | undefined {
  return notUtf8(text) ? NOT_UTF8 : text.includes('\u0000') ? NUL_BYTE : undefined;
}

/**
 * Latin1-decoded text (the X12 tokenizer's one char per byte) back to UTF-8: only free text and ids can carry
 * non-ASCII bytes, so ASCII text is returned as it is.
 */
export function utf8OfLatin1(latin1: string): string {
  for (let i = 0; i < latin1.length; i++) {
    if (latin1.charCodeAt(i) > 0x7f) {
      return Buffer.from(latin1, 'latin1').toString('utf8');
    }
  }
  return latin1;
}
