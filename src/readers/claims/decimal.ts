// Number cells as the claim readers accept them: plain decimal digits (no sign, exponent, hex or blanks), the way
// X12 writes its N0 and R elements; CSV and 837 read units and line numbers by the same rules.

/** The most characters of a units value (X12's R element SV104/SV205 holds 15). */
export const MAX_UNITS_CHARS = 15;
/** The most digits of a line number (X12's LX01, N0 of 1-6). */
export const MAX_LINE_NUMBER_DIGITS = 6;

/**
 * Digits, with at most one decimal point when `point` (`12`, `1.5`, `2.`, `.5`): at least one digit, nothing else.
 * A scan rather than a regex: it runs for every LX and every SV1/SV2.
 */
export function isDecimal(text: string, point: boolean): boolean {
  let digits = 0;
  let points = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      digits++;
    } else if (c === 46 /* . */ && point && points === 0) {
      points++;
    } else {
      return false;
    }
  }
  return digits > 0;
}

/**
 * CLM02, a claim's total charge (required): an X12 R amount within its 18 characters, below a trillion, at most six
 * decimals (`185`, `95.10`, `.5`).
 */
export const CLAIM_CHARGE = /^-?(\d{1,12}(\.\d{0,6})?|\.\d{1,6})$/;
