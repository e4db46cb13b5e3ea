// Build progress on stderr, shared by `refdata build` and `scrub` (which builds the database first when it is missing).
import type { BuildReporter, UnitLabel } from '../src/refdata/builder/builder.js';

const fmt = (n: number): string => n.toLocaleString('en-US');
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const where = (u: UnitLabel): string => (u.member ? `${u.file} [${u.member}]` : u.file);

/** Writes one line per source loaded (rows, bytes, seconds, rows/s) and per phase to stderr. */
export function stderrReporter(): BuildReporter {
  return {
    scanned(files, units, skipped) {
      process.stderr.write(`scanned ${files} files: ${units} units to load, ${skipped.length} files skipped\n`);
      for (const s of skipped) {
        process.stderr.write(`  skipped ${s.file}: ${s.reason}\n`);
      }
    },
    unitProgress(u, rows, bytes, ms, done) {
      const rate = ms > 0 ? Math.round((rows / ms) * 1000) : rows;
      process.stderr.write(
        `${done ? 'loaded ' : '  ...  '} ${u.dataset} ${u.release}: ${fmt(rows)} rows, ${mb(bytes)}, ${secs(ms)}, ${fmt(rate)} rows/s  ${where(u)}\n`,
      );
    },
    phase(name, ms) {
      process.stderr.write(`${name} done in ${secs(ms)}\n`);
    },
  };
}
