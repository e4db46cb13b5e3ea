// The UTC day of the current moment, formatted once per day: every dated operation without a date answers as of
// today, and `toISOString()` per request cost ~1.4 us of a GemsMap call's server time. The day is written as usage
// rows key it (`usageDay`).
import { usageDay } from '../accounts/index.js';

const DAY_MS = 86_400_000;

/** A formatter of `yyyy-MM-dd` (UTC) that keeps its last answer for the rest of that day. */
export function utcDayMemo(): (ms: number) => string {
  let dayStart = 0;
  let day = '';
  return (ms) => {
    if (day === '' || ms < dayStart || ms >= dayStart + DAY_MS) {
      dayStart = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
      day = usageDay(ms);
    }
    return day;
  };
}
