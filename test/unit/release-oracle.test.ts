import { describe, expect, it } from 'vitest';
import { oracleSelfChecks } from '../../bench/lib/oracle-self-checks.js';
import { openPdf } from '../../worker/burn-in/pdfjs.js';

// The release-fidelity bench's oracle (issue 25) on its planted PDFs: each self-check is a way the oracle was
// fooled (or could be, once loosened) whose answer is known; the bench refuses its figures when one fails.
describe('release-fidelity oracle', () => {
  it('still reports every planted case', { timeout: 180_000 }, async () => {
    const checks = await oracleSelfChecks(openPdf);
    expect(checks.length).toBeGreaterThanOrEqual(6);
    expect(checks.filter((check) => !check.pass).map((check) => `${check.name}: ${check.detail}`)).toEqual([]);
  });
});
