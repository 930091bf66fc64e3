import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { tempDir } from '../helpers/temp.js';
import { settledIntake, startIntakeInstance, type IntakeHarness } from '../helpers/intake-support.js';
import { assertBuilt, runCli } from '../helpers/process.js';

// Findings (issue 26, 7): MIME nesting was walked recursively up to 20,000 levels (a V8 fatal error in a
// worker at ~14,000); `--database-url` with a password sat in `ps` output; unknown application-API routes
// answered in the integration API's envelope. (The other items of 7 are in release-controls.test.ts and
// search-stall.test.ts.)

/** A message whose multipart bodies nest `depth` levels deep, with one text part at the bottom. */
function nestedMessage(depth: number): Buffer {
  const heads: string[] = ['From: a@example.org\r\nTo: b@example.org\r\nSubject: nested\r\nMIME-Version: 1.0\r\n'];
  let open = '';
  let close = '';
  for (let level = 0; level < depth; level += 1) {
    open += `Content-Type: multipart/mixed; boundary="b${level}"\r\n\r\n--b${level}\r\n`;
    close = `\r\n--b${level}--\r\n${close}`;
  }
  return Buffer.from(`${heads[0]}${open}Content-Type: text/plain\r\n\r\nbottom\r\n${close}`, 'latin1');
}

describe('security: MIME nesting', () => {
  let h: IntakeHarness;
  beforeAll(async () => {
    h = await startIntakeInstance();
  });
  afterAll(() => h.close());

  it('a message nested 20,000 levels deep fails its own intake plainly; the server and its worker go on', async () => {
    const caseId = await createCase(h.instance, 'Nested mail');
    const [deep, normal] = await uploadDocuments(h.instance, caseId, [
      { name: 'deep.eml', bytes: nestedMessage(20_000) },
      { name: 'normal.eml', bytes: nestedMessage(3) },
    ]);
    const failed = await settledIntake(h.instance, deep?.id ?? '', 60_000);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/nest more than 100 levels/);
    expect((await settledIntake(h.instance, normal?.id ?? '', 60_000)).status).toBe('converted');
  }, 90_000);
});

describe('security: application-API envelope and command lines', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startInstance({ organizations: 1 });
  });
  afterAll(() => instance.close());

  it.each(['/api/nothing', '/api', '/api/ocr/text', '/api/redactions%2Fx', '/OCR/text'])('an unknown application route %s answers 404 in the application API body', async (url) => {
    const response = await instance.server.app.inject({ method: 'GET', url, headers: { host: instance.host } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, code: 'resource_not_found', error: expect.any(String), message: expect.any(String) });
  });

  it('unknown integration routes keep the v1 envelope', async () => {
    const response = await instance.server.app.inject({ method: 'GET', url: '/api/v1/nothing', headers: { host: instance.host } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: { code: 'resource_not_found' } });
  });

  it.each([
    ['serve', ['--database-url', 'postgres://clerk:hunter2-secret@127.0.0.1:1/obscura']],
    ['worker', ['--database-url=postgresql://clerk:hunter2-secret@127.0.0.1:1/obscura']],
    ['init', ['--database-url', 'postgres://clerk:hunter2-secret@127.0.0.1:1/obscura']],
  ])('%s refuses a password in --database-url (readable in ps) before anything opens, without echoing it', async (command, flags) => {
    assertBuilt();
    const dir = tempDir('obscura-cli-password-');
    const result = await runCli([command, '--data-dir', dir, ...flags], 60_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/must not hold a password/);
    expect(result.stdout + result.stderr).not.toContain('hunter2-secret');
  });
});
