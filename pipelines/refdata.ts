// `npm run refdata -- <build|status|verify>`: builds, describes and checks the reference database.
// Parses argv, loads the configuration, and calls src/reference; no logic of its own beyond printing.
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { ScrubberError } from '../src/errors.js';
import { createLogger } from '../src/log.js';
import { buildReference, type UnitLabel } from '../src/refdata/builder/builder.js';
import { stderrReporter } from './build-reporter.js';
import { readStatus, verifyDatabase } from '../src/refdata/builder/status.js';
import { allLoaders, skipRules } from '../src/refdata/loaders/index.js';

const usage = `usage: npm run refdata -- <verb> [options]
  build  [--sources DIR] [--db FILE] [--only NAME,...] [--force]   build the reference database
  status [--db FILE] [--json]                                      what the database holds
  verify [--sources DIR] [--db FILE]                               re-check checksums and counts (exit 1 on mismatch)
  loaders                                                          list loader and dataset names for --only`;

const fmt = (n: number): string => n.toLocaleString('en-US');
const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const where = (u: UnitLabel): string => (u.member ? `${u.file} [${u.member}]` : u.file);

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((c, i) => (i >= 3 && i <= 4 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd()).join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      sources: { type: 'string' },
      db: { type: 'string' },
      only: { type: 'string' },
      force: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'log-level': { type: 'string' },
    },
    strict: true,
  });
  const config = loadConfig(rest);
  const log = createLogger(config).child({ component: 'refdata' });
  switch (verb) {
    case 'build': {
      const only = values.only?.split(',').map((s) => s.trim()).filter(Boolean);
      const known = new Set(allLoaders.map((l) => l.name));
      log.info({ sources: config.refdataDir, db: config.refdataDb, only }, 'build started');
      const result = await buildReference({
        sourcesDir: config.refdataDir,
        dbPath: config.refdataDb,
        bundledDir: config.bundledDir,
        policiesDir: config.policiesDir,
        skipRules,
        loaders: allLoaders,
        only,
        force: values.force,
        reporter: stderrReporter(),
      });
      if (only?.some((o) => !known.has(o)) && result.units.length === 0 && result.status === 'built') {
        process.stderr.write(`warning: --only ${values.only} matched no loader or dataset (see \`refdata loaders\`)\n`);
      }
      if (result.status === 'unchanged') {
        process.stdout.write(`${config.refdataDb} is up to date with ${config.refdataDir} (${secs(result.ms)}); use --force to rebuild\n`);
        return 0;
      }
      const rows = [['dataset', 'release', 'source', 'rows', 'seconds']];
      for (const u of result.units) {
        rows.push([u.dataset, u.release, where(u), fmt(u.rows), (u.ms / 1000).toFixed(2)]);
      }
      const total = result.units.reduce((n, u) => n + u.rows, 0);
      rows.push(['total', '', `${result.units.length} units, ${result.skipped.length} files skipped`, fmt(total), (result.ms / 1000).toFixed(2)]);
      process.stdout.write(`${table(rows)}\nbuilt ${config.refdataDb}\n`);
      return 0;
    }
    case 'status': {
      const status = readStatus(config.refdataDb);
      if (values.json) {
        process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
        return 0;
      }
      process.stdout.write(`${status.dbPath}: schema ${status.schemaVersion}, built ${status.builtAt}\n`);
      const rows = [['dataset', 'release', 'source', 'rows', 'valid', 'sha256']];
      for (const s of status.sources) {
        rows.push([s.dataset, s.release, s.member ? `${s.file} [${s.member}]` : s.file, fmt(s.rows), `${s.validFrom}..${s.validTo ?? ''}`, s.sha256.slice(0, 12)]);
      }
      process.stdout.write(`${table(rows)}\n`);
      for (const s of status.skipped) {
        process.stdout.write(`skipped ${s.file}: ${s.reason}\n`);
      }
      const counts = Object.entries(status.tables).sort(([a], [b]) => (a < b ? -1 : 1));
      const width = Math.max(...counts.map(([name]) => name.length));
      process.stdout.write(`\nrows per table:\n${counts.map(([name, n]) => `  ${name.padEnd(width)}  ${fmt(n).padStart(11)}`).join('\n')}\n`);
      return 0;
    }
    case 'verify': {
      const problems = await verifyDatabase(config.refdataDb, config.refdataDir, config.bundledDir, config.policiesDir);
      for (const p of problems) {
        process.stdout.write(`${p.what}: ${p.detail}\n`);
      }
      process.stdout.write(problems.length === 0 ? `${config.refdataDb}: OK\n` : `${problems.length} problem(s)\n`);
      return problems.length === 0 ? 0 : 1;
    }
    case 'loaders': {
      for (const l of allLoaders) {
        process.stdout.write(`${l.name}@${l.version}\n`);
      }
      return 0;
    }
    case undefined:
    default:
      process.stderr.write(`${usage}\n`);
      return verb === undefined || verb === '--help' ? 0 : 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`refdata: ${err instanceof ScrubberError || err instanceof TypeError ? err.message : String((err as Error).stack ?? err)}\n`);
    process.exitCode = 1;
  },
);
