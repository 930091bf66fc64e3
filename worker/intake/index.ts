import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { IntakeFile, IntakeOutcome, IntakeTask } from '../../main/common/intake-tasks.js';
import { expandPst, splitMbox, type ContainedMessage } from './containers.js';
import { htmlBody, parseEml, parseMsg, type ParsedMessage } from './email.js';
import { convertWithLibreOffice, inspectOffice } from './office.js';
import { renderPdf } from './render.js';
import { minhash, subjectKey, textHash } from './similarity.js';
import { READ_WHOLE } from '../pdf-lib-load.js';

/**
 * Intake's one front door in the worker: reads a stored original (e-mail, mailbox, Office or text file),
 * renders or converts it to PDF, and writes that and every attachment, embedded object or contained message
 * into task.workDir for the main process to store. A failure is returned as a message for the document.
 */
export async function runIntake(task: IntakeTask): Promise<IntakeOutcome | { error: string }> {
  try {
    return await intake(task);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

class Output {
  private count = 0;
  constructor(private readonly dir: string) {}
  async write(name: string, contentType: string, bytes: Uint8Array): Promise<IntakeFile> {
    const tempPath = this.nextPath();
    await fsp.writeFile(tempPath, bytes, { mode: 0o600 });
    return { tempPath, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, name: safeName(name), contentType };
  }
  writeSync(name: string, contentType: string, bytes: Uint8Array): IntakeFile {
    const tempPath = this.nextPath();
    fs.writeFileSync(tempPath, bytes, { mode: 0o600 });
    return { tempPath, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, name: safeName(name), contentType };
  }
  private nextPath(): string {
    this.count += 1;
    return path.join(this.dir, `${String(this.count).padStart(6, '0')}.part`);
  }
}

function safeName(name: string): string {
  const cleaned = name.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim().slice(0, 255);
  return cleaned === '' ? 'attachment' : cleaned;
}

async function intake(task: IntakeTask): Promise<IntakeOutcome> {
  const output = new Output(task.workDir);
  switch (task.format) {
    case 'eml':
    case 'msg': {
      const raw = await fsp.readFile(task.sourcePath);
      return message(task, output, task.format === 'eml' ? await parseEml(raw) : parseMsg(raw));
    }
    case 'mbox': {
      const { messages, total } = splitMbox(await fsp.readFile(task.sourcePath), task.limits.maxContainerMessages);
      const children = [];
      for (const entry of messages) children.push(await output.write(entry.name, 'message/rfc822', entry.bytes));
      return container(task, output, messages, children, total);
    }
    case 'pst': {
      const taken: ContainedMessage[] = [];
      const children: IntakeFile[] = [];
      const { total, skipped } = expandPst(task.sourcePath, task.limits.maxContainerMessages, task.limits.maxAttachments, (entry) => {
        children.push(output.writeSync(entry.name, 'message/rfc822', entry.bytes));
        taken.push({ ...entry, bytes: Buffer.alloc(0) });
      });
      const outcome = await container(task, output, taken, children, total);
      if (skipped > 0) outcome.warnings.push(`${skipped} items that are not e-mail (contacts, calendar entries, tasks) were not taken`);
      return outcome;
    }
    case 'office':
      return office(task, output);
    case 'text':
      return text(task, output);
  }
}

async function message(task: IntakeTask, output: Output, parsed: ParsedMessage): Promise<IntakeOutcome> {
  const warnings: string[] = [];
  const logos = parsed.attachments.filter((part) => part.inline && part.contentType.startsWith('image/') && part.bytes.length < task.limits.inlineImageMinBytes);
  if (logos.length > 0) warnings.push(`${logos.length} inline images under ${task.limits.inlineImageMinBytes} bytes (signature logos, spacers) were not made documents`);
  const kept = parsed.attachments.filter((part) => !logos.includes(part));
  if (kept.length > task.limits.maxAttachments) {
    warnings.push(`${kept.length} attachments: only the first ${task.limits.maxAttachments} were made documents (limit intake.maxAttachments)`);
  }
  const taken = kept.slice(0, task.limits.maxAttachments);
  const { headers } = parsed;
  const names = parsed.attachments.map((part) => part.name);
  const rows: [string, string][] = [
    ['From', headers.from],
    ['To', headers.to.join(', ')],
    ...(headers.cc.length > 0 ? [['Cc', headers.cc.join(', ')] as [string, string]] : []),
    ...(headers.bcc.length > 0 ? [['Bcc', headers.bcc.join(', ')] as [string, string]] : []),
    ['Date', headers.date ?? '(none)'],
    ['Subject', headers.subject],
    ...(names.length > 0 ? [['Attachments', names.length > 200 ? `${names.slice(0, 200).join('; ')}; … ${names.length - 200} more` : names.join('; ')] as [string, string]] : []),
  ];
  const rendered = await renderPdf({ title: headers.subject || task.fileName, header: rows, body: parsed.body, maxPages: task.limits.maxRenderedPages });
  warnings.push(...rendered.warnings);
  if (rendered.truncated) warnings.push(`the rendered message was cut at ${task.limits.maxRenderedPages} pages`);
  const children: IntakeFile[] = [];
  for (const part of taken) children.push(await output.write(part.name, part.contentType, part.bytes));
  return {
    rendered: { ...(await output.write(`${task.fileName}.pdf`, 'application/pdf', rendered.bytes)), pages: rendered.pages },
    email: headers,
    bodyHash: textHash(parsed.body),
    minhash: minhash(parsed.body),
    subjectKey: subjectKey(headers.subject),
    children,
    warnings,
  };
}

async function container(task: IntakeTask, output: Output, messages: ContainedMessage[], children: IntakeFile[], total: number): Promise<IntakeOutcome> {
  const warnings = total > messages.length ? [`${total} messages: only the first ${messages.length} were taken (limit intake.maxContainerMessages)`] : [];
  const listing = messages.map((entry, index) => `${index + 1}. ${entry.summary || entry.name}`).join('\n');
  const rendered = await renderPdf({
    title: task.fileName,
    header: [
      ['Mailbox', task.fileName],
      ['Messages', String(total)],
    ],
    body: listing || '(no messages)',
    maxPages: task.limits.maxRenderedPages,
  });
  warnings.push(...rendered.warnings);
  return {
    rendered: { ...(await output.write(`${task.fileName}.pdf`, 'application/pdf', rendered.bytes)), pages: rendered.pages },
    email: null,
    bodyHash: null,
    minhash: null,
    subjectKey: null,
    children,
    warnings,
  };
}

async function office(task: IntakeTask, output: Output): Promise<IntakeOutcome> {
  if (!task.soffice) throw new Error('LibreOffice is needed to convert this file');
  const { embedded, warnings } = await inspectOffice(task.sourcePath, task.fileName, task.limits);
  const pdfPath = await convertWithLibreOffice(task.soffice, task.sourcePath, task.fileName, task.workDir, task.limits.conversionTimeoutMs);
  const bytes = await fsp.readFile(pdfPath);
  await fsp.rm(path.dirname(pdfPath), { recursive: true, force: true });
  const pages = (await PDFDocument.load(bytes, { ...READ_WHOLE, ignoreEncryption: true, updateMetadata: false })).getPageCount();
  const children: IntakeFile[] = [];
  for (const object of embedded.slice(0, task.limits.maxAttachments)) children.push(await output.write(object.name, 'application/octet-stream', object.bytes));
  if (embedded.length > task.limits.maxAttachments) warnings.push(`${embedded.length} embedded objects: only the first ${task.limits.maxAttachments} were made documents`);
  return { rendered: { ...(await output.write(`${task.fileName}.pdf`, 'application/pdf', bytes)), pages }, email: null, bodyHash: null, minhash: null, subjectKey: null, children, warnings };
}

/** Plain text, CSV and HTML are drawn by intake itself (no LibreOffice needed); HTML is laid out as text, nothing fetched. */
async function text(task: IntakeTask, output: Output): Promise<IntakeOutcome> {
  const raw = await fsp.readFile(task.sourcePath);
  let content: string;
  try {
    content = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    content = raw.toString('latin1');
  }
  if (/\.html?$/i.test(task.fileName)) content = htmlBody(content);
  const rendered = await renderPdf({ title: task.fileName, header: [['File', task.fileName]], body: content, maxPages: task.limits.maxRenderedPages });
  const warnings = [...rendered.warnings, ...(rendered.truncated ? [`the rendered file was cut at ${task.limits.maxRenderedPages} pages`] : [])];
  return {
    rendered: { ...(await output.write(`${task.fileName}.pdf`, 'application/pdf', rendered.bytes)), pages: rendered.pages },
    email: null,
    bodyHash: textHash(content),
    minhash: minhash(content),
    subjectKey: null,
    children: [],
    warnings,
  };
}
