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

/**
 * Why a JSON line whose values hold a NUL character (written `\u0000`) is rejected, as a line holding the byte is:
 * no claim value holds one, and reports cannot carry it (Python's csv module refuses a line holding one).
 */
export const NUL_VALUE = 'a value holds a NUL character (\\u0000)';

/** A claim id read from a rejected line or value, for the reports: each NUL written U+FFFD, as they cannot carry it. */
export function withoutNul(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}

/** Whether a parsed JSON value holds a NUL character in any string or key. */
export function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') {
    return value.includes('\u0000');
  }
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000') || holdsNul(inner)) {
      return true;
    }
  }
  return false;
}

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
