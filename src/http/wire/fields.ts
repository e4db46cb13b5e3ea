// Field types of wire DTOs that plain zod cannot tell apart: Int16 (`short`) and the WCF `/Date(ms+0000)/` date-time
// of the Dashboard. Operation files build their schemas with zod and these helpers; shape.ts reads the marks back.
import { z } from 'zod';

/** Wire kinds that need a mark beyond what the zod schema itself says. */
export type WireKind = 'short' | 'wcf-date';

/** Marks set by the helpers below, read by shape.ts. */
export const wireKinds = z.registry<{ kind: WireKind }>();

/** Bounds of an integer field; both inclusive. */
export interface IntBounds {
  readonly min?: number;
  readonly max?: number;
}

/**
 * An Int32 field (`int` in the spec). Values outside Int32 are answered `OutOfRange`.
 * @param bounds - narrower inclusive bounds, reported in the `OutOfRange` message
 */
export function int(bounds: IntBounds = {}): z.ZodInt32 {
  let s = z.int32();
  if (bounds.min !== undefined) {
    s = s.min(bounds.min);
  }
  if (bounds.max !== undefined) {
    s = s.max(bounds.max);
  }
  return s;
}

/**
 * An Int16 field (`short` in the spec). Pass the bounds here rather than chaining `.min()`/`.max()`, which would
 * drop the mark.
 * @param bounds - narrower inclusive bounds within -32768..32767
 */
export function short(bounds: IntBounds = {}): z.ZodInt {
  const s = z
    .int()
    .min(Math.max(-32768, bounds.min ?? -32768))
    .max(Math.min(32767, bounds.max ?? 32767));
  wireKinds.add(s, { kind: 'short' });
  return s;
}

/** A calendar date, bound from `YYYY-MM-DD`, a date-time or `/Date(ms±hhmm)/`, held as `YYYY-MM-DD`. */
export function date(): z.ZodISODate {
  return z.iso.date();
}

/** A date-time with `Z` or an offset (none means UTC), held as ISO 8601 text that keeps its offset. */
export function dateTime(): z.ZodISODateTime {
  return z.iso.datetime({ offset: true });
}

/** A date-time written in JSON as `"\/Date(ms+0000)\/"` (Dashboard `scheduleOn`/`displayOn`, wire.md §8). */
export function wcfDate(): z.ZodISODateTime {
  const s = z.iso.datetime({ offset: true });
  wireKinds.add(s, { kind: 'wcf-date' });
  return s;
}
