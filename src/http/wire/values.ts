// Text-to-value conversions of wire.md §4: integers, booleans, dates (ISO and WCF `/Date(ms±hhmm)/`), date-times and
// lists written `a,b`, `[a,b]` or with `"a,b"` items. Pure functions over strings; binding.ts decides where they apply.

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;
const WCF_DATE = /^\\?\/Date\((-?\d{1,15})([+-]\d{4})?\)\\?\/$/;
const INTEGER = /^[+-]?\d+$/;

/** The result of converting one text: a value, or the field errorCode to answer with. */
export type Converted<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly code: 'InvalidValue' | 'OutOfRange' };

const invalid = { ok: false, code: 'InvalidValue' } as const;
const pad = (n: number, width = 2): string => String(Math.abs(n)).padStart(width, '0');

/**
 * A decimal integer within inclusive bounds.
 * @param text - the text as received
 * @param min - the smallest accepted value
 * @param max - the largest accepted value
 */
export function parseInteger(text: string, min: number, max: number): Converted<number> {
  const t = text.trim();
  if (!INTEGER.test(t)) {
    return invalid;
  }
  return checkInteger(Number(t), min, max);
}

/**
 * Checks a number that arrived typed (JSON) against integer rules.
 * @param n - the number
 * @param min - the smallest accepted value
 * @param max - the largest accepted value
 */
export function checkInteger(n: number, min: number, max: number): Converted<number> {
  if (!Number.isInteger(n)) {
    return invalid;
  }
  return n < min || n > max ? { ok: false, code: 'OutOfRange' } : { ok: true, value: n };
}

/**
 * A decimal number (`1.5`, `-2`, `1e3`).
 * @param text - the text as received
 */
export function parseNumber(text: string): Converted<number> {
  const t = text.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) {
    return invalid;
  }
  return { ok: true, value: Number(t) };
}

/**
 * `true`/`false` in any case, or `1`/`0`.
 * @param text - the text as received
 */
export function parseBoolean(text: string): Converted<boolean> {
  const t = text.trim().toLowerCase();
  if (t === 'true' || t === '1') {
    return { ok: true, value: true };
  }
  if (t === 'false' || t === '0') {
    return { ok: true, value: false };
  }
  return invalid;
}

function isCalendarDate(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

function validDatePart(text: string): boolean {
  const m = ISO_DATE.exec(text);
  return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** Offset text `+hh`, `+hhmm` or `+hh:mm` in minutes east of UTC, or undefined when malformed. */
function offsetMinutes(text: string): number | undefined {
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(text);
  if (!m) {
    return undefined;
  }
  const h = Number(m[2]);
  const min = Number(m[3] ?? '0');
  if (h > 14 || min > 59) {
    return undefined;
  }
  return (m[1] === '-' ? -1 : 1) * (h * 60 + min);
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  return `${sign}${pad(Math.trunc(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

/** Calendar fields of an instant shifted by an offset, as ISO text without the offset. */
function shiftedIso(ms: number, offset: number): string | undefined {
  const d = new Date(ms + offset * 60_000);
  if (Number.isNaN(d.getTime())) {
    return undefined;
  }
  const year = d.getUTCFullYear();
  if (year < 0 || year > 9999) {
    return undefined;
  }
  return `${pad(year, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
}

/** A `/Date(ms±hhmm)/` text as its instant and offset (0 when it has none). */
function parseWcf(text: string): { ms: number; offset: number; hasOffset: boolean } | undefined {
  const m = WCF_DATE.exec(text.trim());
  if (!m) {
    return undefined;
  }
  const offset = m[2] === undefined ? 0 : offsetMinutes(m[2]);
  return offset === undefined ? undefined : { ms: Number(m[1]), offset, hasOffset: m[2] !== undefined };
}

/**
 * A calendar date as `YYYY-MM-DD` from `YYYY-MM-DD`, a date-time (its date as written, in its own offset) or
 * `/Date(ms±hhmm)/` (the calendar date in that offset; UTC when none).
 * @param text - the text as received
 * @returns the date, or undefined when the text is none of these
 */
export function toDate(text: string): string | undefined {
  const t = text.trim();
  if (ISO_DATE.test(t)) {
    return validDatePart(t) ? t : undefined;
  }
  const dt = toDateTime(t);
  if (dt !== undefined && ISO_DATE_TIME.test(t)) {
    return t.slice(0, 10);
  }
  const wcf = parseWcf(t);
  return wcf === undefined ? undefined : shiftedIso(wcf.ms, wcf.offset)?.slice(0, 10);
}

/**
 * A date-time as ISO 8601 text with `Z` or an offset: ISO input keeps its own offset (none → `Z`, missing seconds
 * → `:00`); a bare date is midnight UTC; `/Date(ms±hhmm)/` is written in its offset (UTC when none).
 * @param text - the text as received
 * @returns the normalised date-time, or undefined when the text is not one
 */
export function toDateTime(text: string): string | undefined {
  const t = text.trim();
  if (ISO_DATE.test(t)) {
    return validDatePart(t) ? `${t}T00:00:00Z` : undefined;
  }
  const m = ISO_DATE_TIME.exec(t);
  if (m) {
    const [, day = '', hh = '', mm = '', ss = '00', frac = '', zone] = m;
    if (!validDatePart(day) || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) {
      return undefined;
    }
    let offset = 'Z';
    if (zone !== undefined && zone.toUpperCase() !== 'Z') {
      const minutes = offsetMinutes(zone);
      if (minutes === undefined) {
        return undefined;
      }
      offset = offsetText(minutes);
    }
    return `${day}T${hh}:${mm}:${ss}${frac}${offset}`;
  }
  const wcf = parseWcf(t);
  if (wcf === undefined) {
    return undefined;
  }
  const local = shiftedIso(wcf.ms, wcf.offset);
  return local === undefined ? undefined : `${local}${wcf.hasOffset ? offsetText(wcf.offset) : 'Z'}`;
}

/**
 * Writes an ISO date-time the way WCF and ServiceStack do: `/Date(ms+hhmm)/` (wire.md §8, Dashboard dates).
 * @param iso - an ISO 8601 date-time with `Z` or an offset
 * @returns the `/Date(…)/` text, unescaped; the JSON writer escapes its slashes
 */
export function formatWcfDate(iso: string): string {
  const ms = Date.parse(iso);
  const zone = /(Z|[+-]\d{2}:?\d{2})$/i.exec(iso)?.[1] ?? 'Z';
  const minutes = zone.toUpperCase() === 'Z' ? 0 : (offsetMinutes(zone) ?? 0);
  const sign = minutes < 0 ? '-' : '+';
  return `/Date(${String(ms)}${sign}${pad(Math.trunc(Math.abs(minutes) / 60))}${pad(Math.abs(minutes) % 60)})/`;
}

/**
 * Splits a list written in one string: `a,b` or `[a,b]`; an item holding a comma is written `"a,b"` (`""` inside
 * quotes is one quote). Items are trimmed; empty items are dropped.
 * @param text - the text as received
 */
export function splitList(text: string): string[] {
  let t = text.trim();
  if (t.startsWith('[') && t.endsWith(']')) {
    t = t.slice(1, -1);
  }
  const items: string[] = [];
  let i = 0;
  while (i <= t.length) {
    while (i < t.length && t[i] === ' ') {
      i++;
    }
    let item = '';
    if (t[i] === '"') {
      i++;
      while (i < t.length) {
        if (t[i] === '"') {
          if (t[i + 1] === '"') {
            item += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        item += t[i];
        i++;
      }
      const comma = t.indexOf(',', i);
      i = comma === -1 ? t.length + 1 : comma + 1;
    } else {
      const comma = t.indexOf(',', i);
      const end = comma === -1 ? t.length : comma;
      item = t.slice(i, end).trim();
      i = end + 1;
    }
    if (item !== '') {
      items.push(item);
    }
  }
  return items;
}
