// Gives the test run one temporary root (every test's mkdtemp(tmpdir()) lands inside it: test workers inherit
// TMPDIR) and removes it when the run ends, so integration builds of the reference database leave nothing behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'claim-scrubber-tests-'));
  process.env['TMPDIR'] = root;
  return () => rmSync(root, { recursive: true, force: true });
}
