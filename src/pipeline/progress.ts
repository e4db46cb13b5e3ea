// The text of the scrubber's progress display: a bar line redrawn on a terminal, a plain line in a log. Pure: the
// caller decides when to draw it and where.
import type { ScrubProgress } from './run-scrub.js';
import { formatCount } from './summary.js';

const BAR_WIDTH = 24;

/** A duration as `m:ss`, or `h:mm:ss` from an hour up. */
export function clock(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${String(h)}:${String(m).padStart(2, '0')}:${s}` : `${String(m)}:${s}`;
}

/**
 * The time left at the rate since `from` (the first progress of the run, so the workers' start-up does not count),
 * or `undefined` while too little is done to tell (under 1% of the input since then, or no fraction known).
 */
export function etaMs(p: ScrubProgress, from?: ScrubProgress): number | undefined {
  const f = p.fraction;
  const f0 = from?.fraction ?? 0;
  if (f !== undefined && f >= 1) {
    return 0;
  }
  if (f === undefined || f - f0 < 0.01) {
    return undefined;
  }
  return ((p.elapsedMs - (from?.elapsedMs ?? 0)) * (1 - f)) / (f - f0);
}

/**
 * One progress line.
 * @param p - the progress the pipeline reported
 * @param tty - a terminal line (a bar, redrawn in place) or a log line
 * @param columns - the terminal's width: a terminal line is cut to it (a pseudo-terminal may say 0: then 120)
 * @param from - the first progress of the run, which the ETA counts from
 */
export function progressLine(p: ScrubProgress, tty: boolean, columns?: number, from?: ScrubProgress): string {
  const width = columns !== undefined && columns >= 20 ? columns : 120;
  const rate = p.elapsedMs > 0 ? (p.linesRead / p.elapsedMs) * 1000 : 0;
  const eta = etaMs(p, from);
  const etaText = eta === undefined ? 'ETA --:--' : `ETA ${clock(eta)}`;
  const pct = p.fraction === undefined ? undefined : `${String(Math.floor(p.fraction * 100))}%`;
  if (!tty) {
    const where = pct === undefined ? '' : `, ${pct}, ${etaText}`;
    return `scrubbing ${p.file}: ${formatCount(p.linesRead)} lines, ${formatCount(p.claims)} claims, ${formatCount(rate)} lines/s${where}, ${clock(p.elapsedMs)} elapsed`;
  }
  const filled = p.fraction === undefined ? 0 : Math.round(p.fraction * BAR_WIDTH);
  const bar = p.fraction === undefined ? '' : `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${pct ?? ''} `;
  const text = `${bar}${formatCount(p.linesRead)} lines  ${formatCount(p.claims)} claims  ${formatCount(rate)} lines/s  ${p.fraction === undefined ? clock(p.elapsedMs) : etaText}  ${p.file}`;
  return text.length > width - 1 ? text.slice(0, width - 1) : text;
}

/**
 * The line naming one of a run's last steps (see ScrubDeps.onStage): on a terminal cut to its width like the bar it
 * replaces (a wrapped line would leave rows that `\r` cannot clear).
 */
export function stageLine(stage: string, tty: boolean, columns?: number): string {
  if (!tty) {
    return stage;
  }
  const width = columns !== undefined && columns >= 20 ? columns : 120;
  const text = `${stage}…`;
  return text.length > width - 1 ? text.slice(0, width - 1) : text;
}
