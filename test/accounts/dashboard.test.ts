// Dashboard content: the committed data/dashboard.json is valid, is loaded into the application database at open,
// replaces earlier content, and comes back with dates as epoch milliseconds.
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect } from 'vitest';
import { readDashboardFile } from '../../src/accounts/index.js';
import { ScrubberError } from '../../src/errors.js';
import { accountsTest as test } from '../helpers/accounts.js';

describe('dashboard', () => {
  test('the committed content file loads, and reads back with epoch-ms dates', ({ open }) => {
    const content = readDashboardFile('data/dashboard.json');
    expect(content.webinars.length).toBeGreaterThan(0);
    expect(content.featureDocuments.length).toBeGreaterThan(0);
    expect(content.trainingMaterials.length).toBeGreaterThan(0);
    const accounts = open({ dashboard: content });
    const dashboard = accounts.dashboard();
    const first = content.webinars[0]!;
    expect(dashboard.webinars[0]).toEqual({
      ...first,
      scheduleOn: Date.parse(first.scheduleOn),
      displayOn: Date.parse(first.displayOn),
    });
    expect(dashboard.featureDocuments).toEqual(content.featureDocuments);
    expect(dashboard.trainingMaterials).toEqual(content.trainingMaterials);
  });

  test('loading replaces the previous content', ({ accounts }) => {
    accounts.loadDashboard(readDashboardFile('data/dashboard.json'));
    accounts.loadDashboard({
      webinars: [],
      featureDocuments: [
        { productName: 'P', sourceUrl: 'https://docs.example.com/p.pdf', mimeType: 'application/pdf' },
      ],
      trainingMaterials: [],
    });
    expect(accounts.dashboard()).toEqual({
      webinars: [],
      featureDocuments: [
        { productName: 'P', sourceUrl: 'https://docs.example.com/p.pdf', mimeType: 'application/pdf' },
      ],
      trainingMaterials: [],
    });
  });

  test('a malformed content file is an INPUT_FORMAT error naming the field', async ({ dbPath }) => {
    const bad = join(dirname(dbPath), 'dashboard.json');
    await writeFile(
      bad,
      JSON.stringify({ webinars: [{ entryId: 'one' }], featureDocuments: [], trainingMaterials: [] }),
    );
    expect(() => readDashboardFile(bad)).toThrow(ScrubberError);
    expect(() => readDashboardFile(bad)).toThrow(/webinars\.0\.entryId/);
    await writeFile(bad, '{ not json');
    expect(() => readDashboardFile(bad)).toThrow(/not valid JSON/);
  });
});
