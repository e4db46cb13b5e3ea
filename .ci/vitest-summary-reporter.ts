// Prints one plain closing line, `tests: N passed, N failed, N skipped`, after the default reporter's summary, so a
// CI reading closing lines sees the counts in a form every runner shares.
import type { Reporter, TestModule } from 'vitest/node';

export class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') {
          passed++;
        } else if (state === 'failed') {
          failed++;
        } else {
          skipped++;
        }
      }
      if (mod.state() === 'failed' && mod.children.size === 0) {
        failed++; // a file that failed to load counts as a failure
      }
    }
    process.stdout.write(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
