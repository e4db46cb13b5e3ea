// Fails any test that writes to the console: engines return findings, loaders report through their
// progress sink, and nothing under test should print.
import { afterEach, beforeEach } from 'vitest';

const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
let written: string[] = [];
const originals = new Map<string, (...args: unknown[]) => void>();

beforeEach(() => {
  written = [];
  for (const m of methods) {
    originals.set(m, console[m].bind(console));
    console[m] = (...args: unknown[]): void => {
      written.push(`console.${m}: ${args.map(String).join(' ')}`);
    };
  }
});

afterEach(() => {
  for (const m of methods) {
    const original = originals.get(m);
    if (original) {
      console[m] = original;
    }
  }
  if (written.length > 0) {
    throw new Error(`test wrote to the console:\n${written.join('\n')}`);
  }
});
