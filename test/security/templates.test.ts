import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { detailFields, errorOf } from '../helpers/integration-support.js';
import { compilePatterns, findPatterns } from '../../worker/detection/custom.js';

// Finding: 100 KB – 1 MB template regexes answered 500 (one of them ran V8 out of memory and took the
// process down). Patterns are bounded to 1,000 characters before anything compiles them, and run on RE2.

describe('security: template regular expressions', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startInstance({ organizations: 1, config: { rateLimits: { enabled: false } } });
  });
  afterAll(() => instance.close());

  const shapes = (size: number) => ['a'.repeat(size), '('.repeat(size), `${'(a|'.repeat(size / 4)}b${')'.repeat(size / 4)}`, `[${'a'.repeat(size)}`, `a{${'9'.repeat(size)},}`];

  it.each([100_000, 1_000_000])('patterns of %i characters → 400 naming the field, quickly, and the server stays up', async (size) => {
    for (const regex of shapes(size)) {
      const started = Date.now();
      const response = await instance.request({ method: 'POST', url: '/api/v1/templates', body: { name: 'huge', patterns: [{ name: 'p', regex }] } });
      const error = errorOf(response, 400, 'validation_error');
      expect(detailFields(error)).toContain('patterns.0.regex');
      expect(response.body.length).toBeLessThan(4096);
      expect(Date.now() - started).toBeLessThan(2000);
    }
    // Detection jobs take inline patterns too.
    const job = await instance.request({ method: 'POST', url: '/api/v1/documents/1/detection-jobs', body: { template: { patterns: [{ name: 'p', regex: '('.repeat(size) }] } } });
    expect(job.statusCode).toBeLessThan(500);
    expect((await instance.request({ method: 'GET', url: '/api/v1/me' })).statusCode).toBe(200);
  }, 60_000);

  it('patterns that would backtrack exponentially in a backtracking engine are stored and run in linear time', async () => {
    const response = await instance.request({ method: 'POST', url: '/api/v1/templates', body: { name: 'redos', layer: 'B6', patterns: [{ name: 'p', regex: '(a+)+$' }, { name: 'q', regex: '(a|aa)*b' }] } });
    expect(response.statusCode).toBe(201);
    // The worker's matcher on the classic near miss: V8's backtracking RegExp takes hours on 5,000 'a's.
    const [compiled] = compilePatterns([{ name: 'q', regex: '(a|aa)*b' }]);
    const started = performance.now();
    expect(findPatterns(`${'a'.repeat(5000)}!`, compiled ? [compiled] : [])).toEqual([]);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
