// report.html (issue 12 §4): the run summary as one self-contained page for a billing manager. A pure function of
// the summary: no I/O, no clock, no locale. The page loads nothing (inline CSS, inline SVG chart, no script) and its
// Content-Security-Policy forbids any load, so it opens the same from a laptop, a mail attachment or an air-gapped
// share. Every string from the summary is escaped; key numbers carry `data-total`/`data-*` attributes for tests.
import type { ScrubSummary } from '../schemas/scrub.js';

/** Rows shown in the top-rules table; the rest are counted in a line under it (all of them are in findings.csv). */
const TOP_RULES = 20;

/** No network, no script, no plugins: only the inline styles and data: images the page itself carries. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const SEVERITY_COLOURS = { error: '#b3261e', warning: '#b26a00', info: '#3b6ea8' } as const;

/**
 * Escapes text for HTML element content and double- or single-quoted attribute values.
 *
 * @param text - any string from the summary (file names, rule ids, reasons can hold `<`, `&`, `"`)
 * @returns the text with `& < > " '` as character references
 */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** An integer with comma thousands separators, independent of the machine's locale. */
function int(n: number): string {
  const s = String(Math.round(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 ? `-${s}` : s;
}

/** A number with one decimal, for milliseconds, MB and lines per second. */
function dec(n: number): string {
  const [whole = '0', frac = '0'] = (Math.round(Math.abs(n) * 10) / 10).toFixed(1).split('.');
  return `${n < 0 ? '-' : ''}${int(Number(whole))}.${frac}`;
}

/** A 0..1 share as a percentage with one decimal. */
function pct(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** One total: a labelled figure whose raw value is in `data-value` and which a test finds by `data-total`. */
function total(id: string, label: string, value: number, shown = int(value)): string {
  return (
    `<div class="card"><div class="label">${escapeHtml(label)}</div>` +
    `<div class="figure" data-total="${escapeHtml(id)}" data-value="${value}">${shown}</div></div>`
  );
}

/**
 * A table with an escaped header row; `rows` hold already-escaped cells, and columns from `numericFrom` on are
 * right-aligned numbers. An empty table shows `empty` instead.
 */
function table(
  id: string,
  headers: readonly string[],
  numericFrom: number,
  rows: readonly string[][],
  empty: string,
): string {
  if (rows.length === 0) {
    return `<p class="empty" data-table="${id}">${escapeHtml(empty)}</p>`;
  }
  const head = headers.map((h, i) => `<th${i >= numericFrom ? ' class="num"' : ''}>${escapeHtml(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.join('')}</tr>`).join('\n');
  return `<table data-table="${id}"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

const td = (text: string): string => `<td>${escapeHtml(text)}</td>`;
const num = (n: number, shown = int(n)): string => `<td class="num" data-value="${n}">${shown}</td>`;

/** Findings by severity as a horizontal SVG bar chart, scaled to the largest count. */
function severityChart(bySeverity: ScrubSummary['findings']['bySeverity']): string {
  const bars = [
    ['error', 'Errors', bySeverity.error],
    ['warning', 'Warnings', bySeverity.warning],
    ['info', 'Info', bySeverity.info],
  ] as const;
  const max = Math.max(1, ...bars.map(([, , n]) => n));
  const labelWidth = 90;
  const barSpace = 420;
  const rowHeight = 34;
  const height = bars.length * rowHeight + 8;
  const width = labelWidth + barSpace + 90;
  const rows = bars.map(([severity, label, n], i) => {
    const y = 8 + i * rowHeight;
    const w = n === 0 ? 0 : Math.max(2, Math.round((n / max) * barSpace));
    return (
      `<g data-severity="${severity}" data-count="${n}">` +
      `<text x="${labelWidth - 8}" y="${y + 17}" text-anchor="end">${label}</text>` +
      `<rect x="${labelWidth}" y="${y}" width="${w}" height="24" rx="3" fill="${SEVERITY_COLOURS[severity]}"/>` +
      `<text x="${labelWidth + w + 6}" y="${y + 17}">${int(n)}</text></g>`
    );
  });
  const description = `Findings by severity: ${int(bySeverity.error)} errors, ${int(bySeverity.warning)} warnings, ${int(bySeverity.info)} info`;
  return (
    `<svg id="severity-chart" role="img" aria-label="${description}" viewBox="0 0 ${width} ${height}" ` +
    `width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg" font-size="14" fill="#222">` +
    `<title>${description}</title>${rows.join('')}</svg>`
  );
}

/** Time per stage: main-thread stages as measured, worker stages as thread time summed and per thread. */
function stageRows(timing: ScrubSummary['timing']): string[][] {
  const threads = Math.max(1, timing.workers);
  // Labels match the pipeline's names for `slowestStage`, which compares worker stages per thread.
  const stages: [string, number, number][] = [
    ['read input (main thread)', timing.mainReadMs, timing.mainReadMs],
    ['wait on workers (main thread)', timing.mainWaitMs, timing.mainWaitMs],
    ['write reports (main thread)', timing.mainWriteMs, timing.mainWriteMs],
    ['cross-claim checks and claims.csv (main thread)', timing.crossClaimMs, timing.crossClaimMs],
    ['claims from text (workers)', timing.workerReadMs, timing.workerReadMs / threads],
    ['validate (workers)', timing.workerValidateMs, timing.workerValidateMs / threads],
    ['report text (workers)', timing.workerRenderMs, timing.workerRenderMs / threads],
  ];
  const longest = Math.max(1, ...stages.map(([, , wall]) => wall));
  return stages.map(([name, summed, wall]) => {
    const slowest = name === timing.slowestStage;
    const bar = `<span class="bar" style="width:${Math.round((wall / longest) * 100)}%"></span>`;
    return [
      `<td${slowest ? ' class="slowest" data-slowest="true"' : ''}>${escapeHtml(name)}${slowest ? ' <strong>(slowest)</strong>' : ''}</td>`,
      num(summed, dec(summed)),
      num(wall, dec(wall)),
      `<td class="barcell">${bar}</td>`,
    ];
  });
}

const STYLE = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;margin:0;background:#f6f7f9}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px}
.meta{color:#555;margin:0}
section{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:12px 18px 16px;margin-top:16px}
.cards{display:flex;flex-wrap:wrap;gap:10px}
.card{border:1px solid #dde1e6;border-radius:6px;padding:8px 14px;min-width:120px;background:#fbfbfc}
.card .label{color:#555;font-size:13px}.card .figure{font-size:24px;font-weight:600}
.rate .figure{color:#1b6e3a}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eceff2;vertical-align:top}
th{background:#f1f3f5}.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.barcell{width:30%}.bar{display:inline-block;height:10px;background:#7a8aa0;border-radius:2px}
td.slowest{font-weight:600}
.warn{color:#b3261e;font-weight:600}.ok{color:#1b6e3a}
.note{color:#444;margin:4px 0 10px}.empty{color:#555;font-style:italic}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
@media print{body{background:#fff}section{break-inside:avoid;border:none}}
`;

/**
 * Renders `report.html` for a scrub run: totals, clean-claim rate, findings by severity (inline SVG), top rules, top
 * providers, checks not run, time per stage, reference releases and input files.
 *
 * @param summary - the run's summary, as written to `summary.json`
 * @returns a complete HTML document that makes no request of any kind
 */
export function renderHtmlReport(summary: ScrubSummary): string {
  const { claims, findings, timing, reference } = summary;

  // Totals and accounting.
  const totals = [
    total('claims-read', 'Claims read', claims.read),
    total('claims-clean', 'Clean', claims.clean),
    total('claims-warnings', 'With warnings', claims.warnings),
    total('claims-errors', 'With errors', claims.errors),
    total('claims-rejected', 'Rejected', claims.rejected),
  ].join('');
  const rate = `<div class="card rate"><div class="label">Clean-claim rate</div><div class="figure" data-total="clean-rate" data-value="${claims.cleanRate}">${pct(claims.cleanRate)}</div></div>`;
  const lines = [
    total('lines-read', 'Lines read', summary.linesRead),
    total('lines-scrubbed', 'Lines scrubbed', summary.linesScrubbed),
    total('lines-rejected', 'Lines rejected', summary.linesRejected),
    total('findings-total', 'Findings', findings.total),
  ].join('');
  const { accounting } = summary;
  const balance =
    accounting.linesBalance && accounting.claimsBalance
      ? `<p class="ok" data-accounting="balanced">Accounting balances: lines read = lines scrubbed + lines rejected (${int(summary.linesRead)} = ${int(summary.linesScrubbed)} + ${int(summary.linesRejected)}); claims read = claims reported (${int(accounting.claimsReported)}).</p>`
      : `<p class="warn" data-accounting="unbalanced">Accounting does not balance: ${accounting.linesBalance ? '' : `lines read ${int(summary.linesRead)} ≠ scrubbed ${int(summary.linesScrubbed)} + rejected ${int(summary.linesRejected)}. `}${accounting.claimsBalance ? '' : `Claims reported ${int(accounting.claimsReported)} do not add up by status. `}Treat this run's figures with suspicion.</p>`;

  // Top rules.
  const ruleRows = findings.byRule
    .slice(0, TOP_RULES)
    .map((r) => [
      `<td><code>${escapeHtml(r.rule)}</code></td>`,
      num(r.error),
      num(r.warning),
      num(r.info),
      num(r.error + r.warning + r.info),
    ]);
  const moreRules =
    findings.byRule.length > TOP_RULES
      ? `<p class="note">…and ${int(findings.byRule.length - TOP_RULES)} more rules; every finding is in findings.csv.</p>`
      : '';

  // Top providers.
  const providerRows = summary.topProviders.map((p) => [td(p.provider), num(p.claims), num(p.errors), num(p.warnings)]);

  // Not checked.
  const notCheckedRows = summary.notChecked.map((n) => [
    `<td><code>${escapeHtml(n.rule)}</code></td>`,
    td(n.missing),
    td(n.reason),
    num(n.claims),
  ]);

  // Reference and inputs.
  const releaseRows = reference.releasesUsed.map((r) => [td(r.dataset), td(r.release), num(r.findings)]);
  const inputRows = summary.inputs.map((i) => [
    td(i.error === undefined ? i.name : `${i.name}: NOT READ TO ITS END: ${i.error}`),
    td(i.format ?? 'not a claim file'),
    num(i.claims),
    num(i.linesRead),
  ]);
  const reports = summary.reports.map((r) => `<li><code>${escapeHtml(r)}</code></li>`).join('');
  // File-structure problems (837 envelopes) and the history file: said where they apply, nothing otherwise.
  const problemRows = (summary.fileProblems?.first ?? []).map((p) => [td(p.file), num(p.line), td(p.reason)]);
  const problems =
    summary.fileProblems === undefined
      ? ''
      : `<h3>File-structure problems: <span data-field="file-problems">${int(summary.fileProblems.count)}</span></h3>
${table('file-problems', ['File', 'Segment', 'Problem'], 1, problemRows, '')}`;
  const history =
    summary.history === undefined
      ? ''
      : `<p>History file <code data-field="history-file">${escapeHtml(summary.history.file)}</code>: <span data-field="history-services">${int(summary.history.services)}</span> earlier services loaded for the checks across claims, ${int(summary.history.rejected)} rows rejected${summary.history.firstRejected[0] === undefined ? '' : ` (first: line ${int(summary.history.firstRejected[0].line)}, ${escapeHtml(summary.history.firstRejected[0].reason)})`}.</p>`;

  const checks =
    summary.checks === undefined
      ? ''
      : `<p class="note"><strong>Only some checks ran</strong> (<code>--checks</code>): <span data-field="checks">${escapeHtml(summary.checks.join(', '))}</span>. Clean means clean for these; the other checks were not run.</p>
`;

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Claim scrub report ${escapeHtml(summary.startedAt)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Claim scrub report</h1>
<p class="meta">Run started <time data-field="started-at">${escapeHtml(summary.startedAt)}</time>, finished <time data-field="finished-at">${escapeHtml(summary.finishedAt)}</time> (${dec(timing.elapsedMs / 1000)} s)${summary.resumed ? ', <strong>resumed from a checkpoint</strong>' : ''}.</p>

<section id="totals">
<h2>Totals</h2>
<div class="cards">${totals}${rate}</div>
<p class="note">Clean means no error and no warning. The clean-claim rate is clean claims over claims read (rejected claims included). <span data-total="clean-not-checked" data-value="${claims.cleanNotChecked}">${int(claims.cleanNotChecked)}</span> of the clean claims had a check that could not run for lack of data (see Not checked): they are clean for the checks that ran.</p>
${checks}<div class="cards">${lines}</div>
${balance}
</section>

<section id="severity">
<h2>Findings by severity</h2>
${severityChart(findings.bySeverity)}
</section>

<section id="top-rules">
<h2>Top rules</h2>
${table('top-rules', ['Rule', 'Errors', 'Warnings', 'Info', 'Total'], 1, ruleRows, 'No findings.')}
${moreRules}
</section>

<section id="top-providers">
<h2>Top providers</h2>
<p class="note">Billing providers with the most claims with errors (contractor number, else state and ZIP as billed). Claims counts scrubbed claims; errors and warnings count claims by status.</p>
${table('top-providers', ['Provider', 'Claims', 'With errors', 'With warnings'], 1, providerRows, 'No scrubbed claims.')}
</section>

<section id="not-checked">
<h2>Not checked</h2>
<p class="note"><strong>Not checked is never a pass.</strong> These checks could not run for the claims counted here (the Missing and Reason columns say why), so those claims were not verified against them, whatever their status above.</p>
${table('not-checked', ['Rule', 'Missing', 'Reason', 'Claims'], 3, notCheckedRows, 'Every check ran.')}
</section>

<section id="timing">
<h2>Time per stage</h2>
<p>Slowest stage: <strong data-field="slowest-stage">${escapeHtml(timing.slowestStage || 'none')}</strong>. ${dec(timing.linesPerSecond)} lines/s with ${int(timing.workers)} worker${timing.workers === 1 ? '' : 's'}; peak RSS ${dec(timing.peakRssMb)} MB.</p>
${table('timing', ['Stage', 'Thread time (ms)', 'Per thread (ms)', ''], 1, stageRows(timing), '')}
<p class="note">Worker stages sum thread time over all workers; "per thread" divides by the worker count. Waiting on workers is main-thread idle time, not a stage of work. Reference load per worker: ${timing.workerLoadMs.map((ms) => `${dec(ms)} ms`).join(', ') || 'none'}.</p>
</section>

<section id="reference">
<h2>Reference releases used</h2>
<p>Database <code data-field="reference-database">${escapeHtml(reference.database)}</code>, built ${escapeHtml(reference.builtAt)}, schema version ${int(reference.schemaVersion)}.</p>
${table('releases', ['Dataset', 'Release', 'Findings'], 2, releaseRows, 'No finding rests on a reference release.')}
</section>

<section id="inputs">
<h2>Input files</h2>
${table('inputs', ['File', 'Format', 'Claims', 'Lines read'], 2, inputRows, 'No input files.')}
${problems}
${history}
<p class="note">Reports written beside this page:</p>
<ul>${reports}</ul>
</section>
</main>
</body>
</html>
`;
}
