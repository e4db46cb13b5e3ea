// renderHtmlReport (src/reports/html-report.ts) on a hand-made summary, as a string: every summary string is escaped,
// the totals a test or a reader looks for are there, and the page names nothing it could load. The page as a browser
// shows it is checked in html-report.browser.test.ts.
import { describe, expect, test } from 'vitest';
import { escapeHtml, renderHtmlReport } from '../../src/reports/html-report.js';
import { expectedTotals, makeSummary } from './summary-fixture.js';

/** `data-total` id → [raw data-value, text shown]. */
function totalsIn(html: string): Map<string, [string, string]> {
  const found = new Map<string, [string, string]>();
  for (const m of html.matchAll(/data-total="([^"]+)" data-value="([^"]+)">([^<]*)</g)) {
    found.set(m[1]!, [m[2]!, m[3]!]);
  }
  return found;
}

describe('renderHtmlReport', () => {
  test('shows every total with its raw value and a thousands-separated figure', () => {
    const summary = makeSummary();
    const totals = totalsIn(renderHtmlReport(summary));
    for (const [id, value] of Object.entries(expectedTotals(summary))) {
      expect(totals.get(id)?.[0], id).toBe(String(value));
      expect(totals.get(id)?.[1].replaceAll(',', ''), id).toBe(String(value));
    }
    expect(totals.get('claims-read')?.[1]).toBe('12,345');
    expect(totals.get('clean-rate')).toEqual([String(summary.claims.cleanRate), '80.0%']);
  });

  test('escapes file names, rule ids, providers, releases and reasons', () => {
    const html = renderHtmlReport(makeSummary());
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('<co>');
    expect(html).toContain('&lt;script&gt;alert(&quot;rule&quot;)&lt;/script&gt;');
    expect(html).toContain('claims &lt;b&gt;&amp;&quot;march&quot;&#39;.csv');
    expect(html).toContain('J &quot;15&quot; &amp; &lt;co&gt;');
    expect(html).toContain('2025Q1 &amp; &lt;x&gt;');
    expect(html).toContain('/data/build/reference&lt;1&gt;.sqlite');
    expect(html).toContain('no MUE release covers dates of service &lt; 2020 &amp; &quot;older&quot;');
  });

  test('escapeHtml replaces the five special characters and nothing else', () => {
    expect(escapeHtml(`a<b>&"c"'d é`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&#39;d é');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });

  test('draws findings by severity as an inline SVG bar chart', () => {
    const summary = makeSummary();
    const html = renderHtmlReport(summary);
    const { error, warning, info } = summary.findings.bySeverity;
    expect(html).toMatch(/<svg id="severity-chart" role="img"/);
    expect(html).toContain(`<g data-severity="error" data-count="${error}">`);
    expect(html).toContain(`<g data-severity="warning" data-count="${warning}">`);
    expect(html).toContain(`<g data-severity="info" data-count="${info}">`);
  });

  test('lists the top 20 rules and counts the rest', () => {
    const html = renderHtmlReport(makeSummary());
    expect(html).toContain('RULE_19');
    expect(html).not.toContain('RULE_20');
    expect(html).toContain('and 5 more rules');
  });

  test('lists top providers, releases used and input files', () => {
    const html = renderHtmlReport(makeSummary());
    expect(html).toMatch(/CA 94110<\/td><td class="num" data-value="800">800</);
    expect(html).toMatch(/icd10cm<\/td><td>FY2025<\/td><td class="num" data-value="700">700</);
    expect(html).toMatch(/late\.ndjson<\/td><td>ndjson<\/td><td class="num" data-value="345">345</);
  });

  test('shows file-structure problems and the history file when a run had them, and nothing of them otherwise', () => {
    const html = renderHtmlReport(
      makeSummary({
        fileProblems: { count: 2, first: [{ file: 'night.837', line: 26, reason: 'SE01 says 99 segments, <the set> has 24' }] },
        history: { file: 'history.csv', services: 1234, rejected: 1, firstRejected: [{ line: 7, reason: 'no patientId' }] },
      }),
    );
    expect(html).toMatch(/data-field="file-problems">2</);
    expect(html).toMatch(/night\.837<\/td><td class="num" data-value="26">26<\/td><td>SE01 says 99 segments, &lt;the set&gt; has 24</);
    expect(html).toMatch(/data-field="history-services">1,234<\/span> earlier services loaded .*1 rows rejected \(first: line 7, no patientId\)/);
    const plain = renderHtmlReport(makeSummary());
    expect(plain).not.toMatch(/file-problems|history-file/);
  });

  test('says not checked is never a pass, with or without checks that did not run', () => {
    const withGaps = renderHtmlReport(makeSummary());
    expect(withGaps).toContain('Not checked is never a pass.');
    expect(withGaps).toContain('MUE_&lt;LIMIT&gt;');
    const none = renderHtmlReport(makeSummary({ notChecked: [] }));
    expect(none).toContain('Not checked is never a pass.');
    expect(none).toContain('Every check ran.');
  });

  test('marks the slowest stage in the time-per-stage table', () => {
    const html = renderHtmlReport(makeSummary());
    expect(html).toContain('data-field="slowest-stage">validate (workers)<');
    expect(html).toMatch(
      /<td class="slowest" data-slowest="true">validate \(workers\) <strong>\(slowest\)<\/strong><\/td>/,
    );
    expect(html.match(/data-slowest/g)).toHaveLength(1);
  });

  test('warns when the accounting does not balance', () => {
    const balanced = renderHtmlReport(makeSummary());
    expect(balanced).toContain('data-accounting="balanced"');
    const summary = makeSummary();
    const off = renderHtmlReport({ ...summary, accounting: { ...summary.accounting, linesBalance: false } });
    expect(off).toContain('data-accounting="unbalanced"');
    expect(off).toContain('Accounting does not balance');
  });

  test('names nothing to load and forbids loads by Content-Security-Policy', () => {
    const html = renderHtmlReport(makeSummary());
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:;`,
    );
    expect(html).not.toMatch(/\b(?:src|href|action|srcset|poster)\s*=/i);
    expect(html).not.toMatch(/url\(|@import|<link|<script|<iframe|<object|<embed|<img/i);
    // The only URL is the SVG namespace, an identifier that is never fetched.
    expect([...html.matchAll(/[a-z]+:\/\/[^\s"'<>]+/gi)].map((m) => m[0])).toEqual(['http://www.w3.org/2000/svg']);
  });

  test('is a pure function of the summary', () => {
    expect(renderHtmlReport(makeSummary())).toBe(renderHtmlReport(makeSummary()));
  });
});
