import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { expect, test } from './support/fixtures.js';
import { textPdf } from './support/pdfs.js';

// The case's "Families and threads" panel: e-mails made by nodemailer, converted by the served instance's
// intake; the clerk filters duplicates, threads and messages with attachments, opens a family tree and a thread.

function compose(options: Mail.Options): Promise<Buffer> {
  return new Promise((resolve, reject) => new MailComposer(options).compile().build((error, message) => (error ? reject(error) : resolve(message))));
}

interface Intake {
  data: { status: string };
}

test('families, threads and duplicates of e-mail in the case', async ({ admin, signedIn: page }, testInfo) => {
  const created = await admin.createCase(`Mail case ${Date.now()}`);
  const request = await compose({
    from: 'Ana Núñez <ana.nunez@example.org>',
    to: 'records@city.example.gov',
    subject: 'Pier repairs request',
    messageId: '<pier-1@example.org>',
    text: 'Please send the inspection report on the east pier repairs and the contractor invoices.',
    attachments: [{ filename: 'inspection.pdf', content: await textPdf([[{ text: 'Inspection of the east pier', x: 72, y: 700, size: 12 }]]) }],
  });
  const reply = await compose({
    from: 'records@city.example.gov',
    to: 'Ana Núñez <ana.nunez@example.org>',
    subject: 'Re: Pier repairs request',
    messageId: '<pier-2@city.example.gov>',
    inReplyTo: '<pier-1@example.org>',
    references: ['<pier-1@example.org>'],
    text: 'We received your request and will answer within ten working days.',
  });
  const documents = await admin.upload(created.id, [
    { name: 'request.eml', bytes: request },
    { name: 'reply.eml', bytes: reply },
    { name: 'request-copy.eml', bytes: request },
  ]);
  for (const document of documents) {
    await expect
      .poll(async () => (await admin.expect<Intake>(200, 'GET', `/api/v1/documents/${document.id}/intake`)).data.status, { timeout: 60_000 })
      .toBe('converted');
  }

  await page.goto(`/#/cases/${created.id}`);
  const panel = page.getByRole('region', { name: 'Families and threads' });
  const rows = panel.getByRole('list', { name: 'Intake documents' }).locator(':scope > li');
  // Three messages and the request's attachment.
  await expect(rows).toHaveCount(4);

  await panel.getByRole('button', { name: 'Duplicates' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('request-copy.eml');
  // The badge names the first copy by its file name and opens it.
  await expect(rows.first()).toContainText('duplicate of request.eml');
  await expect(rows.first().getByRole('link', { name: 'request.eml' })).toHaveAttribute('href', `#/documents/${documents[0]!.id}?case=${created.id}`);

  await panel.getByRole('button', { name: 'Has attachments' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('request.eml');
  await rows.first().getByRole('button', { name: 'Pier repairs request' }).click();
  const family = rows.first().getByRole('list', { name: 'Family' }).getByRole('listitem');
  await expect(family).toHaveCount(2);
  await expect(family.nth(0)).toContainText('request.eml');
  await expect(family.nth(1)).toContainText('inspection.pdf');
  await expect(family.nth(1)).toHaveAttribute('data-depth', '1');

  await panel.getByRole('button', { name: 'Thread', exact: true }).click();
  await expect(rows).toHaveCount(3);
  await rows.filter({ hasText: 'reply.eml' }).getByRole('button', { name: 'Re: Pier repairs request' }).click();
  const thread = panel.getByRole('list', { name: 'Thread' }).getByRole('listitem');
  await expect(thread).toHaveCount(3);
  await expect(thread.filter({ hasText: 'inclusive: review this one' })).toHaveCount(1);
  await expect(thread.filter({ hasText: 'inclusive: review this one' })).toContainText('Re: Pier repairs request');
  await testInfo.attach('intake-thread', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
});
