// wire.md §10 and §14 rows: CSV list mode, single-row mode, quoting, headers.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers.js';
import { testOperations } from '../test-operations.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ deps: { operations: testOperations } });
});
afterAll(async () => {
  await s.close();
});

async function csv(path: string): Promise<{ res: Response; text: string }> {
  const res = await fetch(`${s.base}${path}`);
  return { res, text: await res.text() };
}

describe('CSV output', () => {
  test('list mode: one row per item under a camelCase header (2 items → 3 lines), matching the golden file', async () => {
    const { res, text } = await csv('/csv/reply/ProbeMap?sourceCodeCsv=A02.1');
    expect(res.status).toBe(200);
    expect(text).toBe(readFileSync('test/fixtures/http/probe-map.csv.golden', 'utf8'));
    expect(text.split('\r\n').filter((l) => l !== '')).toHaveLength(3);
  });

  test('list mode with no items gives the header only', async () => {
    const { text } = await csv('/csv/reply/ProbeMap?sourceCodeCsv=,');
    expect(text).toBe(
      'sourceCode,sourceCodeDesc,code,codeDesc,isApproximate,isCombination,isNotMappable,scenario,choiceList,flags\r\n',
    );
  });

  test('list mode of string→string maps uses the union of keys in first-seen order', async () => {
    const { text } = await csv('/csv/reply/ProbeDoc');
    expect(text).toBe('text,begin,code,negated\r\nchest pain,0,R07.9,\r\nno fever,,R50.9,true\r\n');
  });

  test('single-row mode: dot-path columns from the schema, | joins, JSON cells, no responseStatus on success', async () => {
    const { text } = await csv(
      `/csv/reply/Probe?cptCodes=93325,93320&patient=${encodeURIComponent('{"age":70}')}&cptIcdMapping=${encodeURIComponent('{"93325":["I10"]}')}`,
    );
    const [header = '', row = ''] = text.split('\r\n');
    expect(header).toBe(
      'request.search,request.codeSet,request.startRow,request.endRow,request.logicLimit,request.includeIndex,request.effectiveDate,request.timeStamp,request.cptCodes,request.conceptIdList,request.patient.age,request.patient.gender,request.cptIcdMapping,request.extra',
    );
    expect(row).toBe(',,,10,,,,,93325|93320,,70,,"{""93325"":[""I10""]}",');
    expect(header).not.toContain('responseStatus');
  });

  test('quotes per RFC 4180, CRLF after every row, no BOM, attachment filename', async () => {
    const { res, text } = await csv('/csv/reply/ProbeMap?sourceCodeCsv=A02.1');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment;filename="ProbeMap.csv"');
    expect(text).toContain('"Salmonella sepsis, ""typhoid"", and others"');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
  });

  test('quotes a cell holding a line break', async () => {
    const { text } = await csv(`/csv/reply/Hello?worldParam=${encodeURIComponent('a\nb')}`);
    expect(text.split('\r\n')[1]).toMatch(/^"Hello, a\nb",/);
  });

  test('an error is one row of responseStatus columns with the errors as JSON', async () => {
    const { res, text } = await csv('/csv/reply/ProbeMap');
    expect(res.status).toBe(400);
    expect(text).toBe(
      'responseStatus.errorCode,responseStatus.message,responseStatus.errors\r\n' +
        `NotEmpty,'sourceCodeCsv' must not be empty.,"[{""errorCode"":""NotEmpty"",""fieldName"":""sourceCodeCsv"",""message"":""'sourceCodeCsv' must not be empty.""}]"\r\n`,
    );
  });
});
