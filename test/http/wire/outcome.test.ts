// wire.md §9 and §14 rows: statusFor(), the error envelope, stack traces only with http.debug, 500 details only in
// the log, and hooks answering with an outcome (the extension point for auth and rate limiting).
import { pino } from 'pino';
import { describe, expect, test } from 'vitest';
import { WireErrorCodes, type WireErrorCode } from '../../../src/schemas/wire-codes.js';
import { badRequest, failure, fieldError, isOutcome, statusFor } from '../../../src/http/wire/outcome.js';
import { logSink as sink, startServer } from '../helpers.js';
import { testOperations } from '../test-operations.js';

describe('statusFor', () => {
  test.each([
    ['NotEmpty', 400],
    ['InvalidValue', 400],
    ['OutOfRange', 400],
    ['TooMany', 400],
    ['SerializationException', 400],
    ['Unauthorized', 401],
    ['InvalidSignature', 401],
    ['SignatureExpired', 401],
    ['SessionExpired', 401],
    ['Forbidden', 403],
    ['NotFound', 404],
    ['MethodNotAllowed', 405],
    ['Conflict', 409],
    ['PayloadTooLarge', 413],
    ['UnsupportedMediaType', 415],
    ['TooManyRequests', 429],
    ['InternalError', 500],
    ['ServiceUnavailable', 503],
  ] as const)('%s → %i', (code: WireErrorCode, status) => {
    expect(statusFor(failure(code))).toBe(status);
  });

  test('covers every registered code', () => {
    expect(Object.keys(WireErrorCodes)).toHaveLength(18);
  });

  test('a 400 takes its top-level code and message from the first field error', () => {
    const o = badRequest([fieldError('OutOfRange', 'endRow', { min: 1, max: 200 }), fieldError('NotEmpty', 'search')]);
    expect(o.errorCode).toBe('OutOfRange');
    expect(o.message).toBe("'endRow' must be between 1 and 200.");
    expect(isOutcome(o)).toBe(true);
    expect(isOutcome({ errorCode: 'NotFound' })).toBe(false);
    expect(() => badRequest([])).toThrow(RangeError);
  });

  test('renders the four field templates', () => {
    expect(fieldError('NotEmpty', 'sourceCodeCsv').message).toBe("'sourceCodeCsv' must not be empty.");
    expect(fieldError('InvalidValue', 'codeSet', { value: 'ICD-11' }).message).toBe(
      "'ICD-11' is an invalid value for 'codeSet'.",
    );
    expect(fieldError('OutOfRange', 'endRow', { min: 1, max: 200 }).message).toBe(
      "'endRow' must be between 1 and 200.",
    );
    expect(fieldError('TooMany', 'cptCodes', { max: 50 }).message).toBe("'cptCodes' must not have more than 50 items.");
  });
});

describe('500 InternalError', () => {
  test('without http.debug: generic message, no stackTrace, details only in the log', async () => {
    const { stream, lines } = sink();
    const s = await startServer({ deps: { operations: testOperations, log: pino({ level: 'info' }, stream) } });
    try {
      const res = await fetch(`${s.base}/json/reply/ProbeFail`);
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({
        responseStatus: { errorCode: 'InternalError', message: 'An internal error occurred.', errors: [] },
      });
      expect(text).not.toContain('secret detail');
      const logged = lines.find((l) => l['msg'] === 'operation failed');
      expect(JSON.stringify(logged)).toContain('secret detail of the failure');
      expect((await fetch(`${s.base}/api/Hello?worldParam=after`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  test('with http.debug: the stackTrace is included', async () => {
    const s = await startServer({ http: { debug: true }, deps: { operations: testOperations } });
    try {
      const body = (await (await fetch(`${s.base}/json/reply/ProbeFail`)).json()) as {
        responseStatus: Record<string, unknown>;
      };
      expect(Object.keys(body.responseStatus)).toEqual(['errorCode', 'message', 'stackTrace', 'errors']);
      expect(String(body.responseStatus['stackTrace'])).toContain('secret detail of the failure');
      const validation = (await (await fetch(`${s.base}/json/reply/ProbeMap`)).json()) as {
        responseStatus: Record<string, unknown>;
      };
      expect(validation.responseStatus['stackTrace']).toBeUndefined();
    } finally {
      await s.close();
    }
  });
});

describe('pipeline hooks', () => {
  test('an onRequest hook can answer before the body is read, with extra headers', async () => {
    const seen: string[] = [];
    const s = await startServer({
      deps: {
        operations: testOperations,
        hooks: {
          onRequest: [
            (call) => {
              seen.push(`auth:${call.operation.name}:${String(call.operation.public)}`);
              if (call.operation.public) {
                call.caller = {
                  key: 'anonymous',
                  principal: { apiKey: 'anonymous', entityId: 1, userName: 'anonymous' },
                  via: 'session',
                };
                return undefined;
              }
              return failure('Unauthorized');
            },
            (call) =>
              call.caller?.key === 'anonymous' && call.query.has('throttle')
                ? failure('TooManyRequests', undefined, { params: { seconds: 3 }, headers: { 'Retry-After': '3' } })
                : undefined,
          ],
          onResponse: [(call, status) => seen.push(`done:${call.operation.name}:${String(status)}`)],
        },
      },
    });
    try {
      const denied = await fetch(`${s.base}/json/reply/ProbeMap`, { method: 'POST', body: '{not json' });
      expect(denied.status).toBe(401);
      expect(((await denied.json()) as { responseStatus: { errorCode: string } }).responseStatus.errorCode).toBe(
        'Unauthorized',
      );
      const throttled = await fetch(`${s.base}/json/reply/Hello?worldParam=w&throttle=1`);
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get('retry-after')).toBe('3');
      expect((await fetch(`${s.base}/json/reply/Hello?worldParam=w`)).status).toBe(200);
      expect(seen).toEqual([
        'auth:ProbeMap:false',
        'done:ProbeMap:401',
        'auth:Hello:true',
        'done:Hello:429',
        'auth:Hello:true',
        'done:Hello:200',
      ]);
    } finally {
      await s.close();
    }
  });
});
