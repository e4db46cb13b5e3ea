import { describe, expect, test } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { ConfigError } from '../src/errors.js';

describe('loadConfig: the http section', () => {
  test('defaults: 127.0.0.1:8080, 1 MiB bodies, debug off, auth on', () => {
    const { http } = loadConfig([], {});
    expect(http).toEqual({
      port: 8080,
      host: '127.0.0.1',
      maxBodyBytes: 1048576,
      debug: false,
      auth: true,
      env: 'development',
      apiUrl: 'http://127.0.0.1:8080/api',
      webRoot: 'http://127.0.0.1:8080/',
      webRootWdb: 'http://127.0.0.1:8080/',
      warm: [],
      nlpMaxTextBytes: 102400,
    });
    expect(Object.isFrozen(http)).toBe(true);
  });

  test('argv --port/--host/--no-auth win over the environment', () => {
    const { http } = loadConfig(['--port', '0', '--host=::1', '--no-auth'], {
      HTTP_PORT: '9000',
      HTTP_HOST: '0.0.0.0',
      HTTP_AUTH: 'true',
    });
    expect(http).toMatchObject({ port: 0, host: '::1', auth: false, apiUrl: 'http://[::1]:0/api' });
  });

  test('reads the environment', () => {
    const { http } = loadConfig([], {
      HTTP_MAX_BODY_BYTES: '2048',
      HTTP_DEBUG: 'TRUE',
      APP_ENV: 'prod',
      API_URL: 'https://x/api',
      WEB_ROOT: 'https://x/',
      WEB_ROOT_WDB: 'https://x/wdb/',
    });
    expect(http).toMatchObject({
      maxBodyBytes: 2048,
      debug: true,
      env: 'prod',
      apiUrl: 'https://x/api',
      webRoot: 'https://x/',
      webRootWdb: 'https://x/wdb/',
    });
  });

  test('--warm and HTTP_WARM name the indexes serve builds before listening; HTTP_NLP_MAX_TEXT_BYTES sets the text limit', () => {
    expect(loadConfig(['--warm', 'search,nlp'], {}).http.warm).toEqual(['search', 'nlp']);
    expect(loadConfig([], { HTTP_WARM: ' nlp ' }).http.warm).toEqual(['nlp']);
    expect(loadConfig(['--warm=search'], { HTTP_WARM: 'nlp' }).http.warm).toEqual(['search']);
    expect(() => loadConfig(['--warm', 'search,everything'], {})).toThrow(/http\.warm/);
    expect(loadConfig([], { HTTP_NLP_MAX_TEXT_BYTES: '5000' }).http.nlpMaxTextBytes).toBe(5000);
    expect(() => loadConfig([], { HTTP_NLP_MAX_TEXT_BYTES: 'lots' })).toThrow(/http\.nlpMaxTextBytes/);
  });

  test('names invalid values', () => {
    expect(() => loadConfig(['--port', 'http'], {})).toThrow(ConfigError);
    expect(() => loadConfig([], { HTTP_DEBUG: 'maybe' })).toThrow(/http\.debug/);
    expect(() => loadConfig([], { HTTP_PORT: '70000' })).toThrow(/http\.port/);
    expect(() => loadConfig(['--port'], {})).toThrow(/--port needs a value/);
  });
});

describe('loadConfig: the sources folder sticks', () => {
  test('without --sources or REFDATA_DIR, the folder the database was built from (its manifest) is used', () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-'));
    const db = join(dir, 'reference.sqlite');
    writeFileSync(join(dir, 'reference.manifest.json'), JSON.stringify({ schemaVersion: 1, builtAt: 'x', sourcesDir: '../shared/data', sources: [] }));
    expect(loadConfig([], { REFDATA_DB: db }).refdataDir).toBe('../shared/data');
    expect(loadConfig([], { REFDATA_DB: db, REFDATA_DIR: 'elsewhere' }).refdataDir).toBe('elsewhere');
    expect(loadConfig(['--sources', 'given'], { REFDATA_DB: db }).refdataDir).toBe('given');
    expect(loadConfig([], { REFDATA_DB: join(dir, 'none.sqlite') }).refdataDir).toBe('data/sources');
  });
});
