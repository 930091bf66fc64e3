import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { tempDir } from '../helpers/temp.js';
import { documentBytes, pdfText, settledIntake, startIntakeInstance, type IntakeHarness } from '../helpers/intake-support.js';

// Finding (issue 26, 5): LibreOffice ran with its profile at os.tmpdir()/obscura-libreoffice-<pid>-<thread>
// (another local user could plant one with a macro), default settings, Obscura's whole environment (database
// URL, S3 credentials), network access and no memory limit: a document's external picture was fetched.

async function odtWithLinkedPicture(url: string): Promise<Buffer> {
  const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3"><office:body><office:text><text:p>Linked picture below</text:p><text:p><draw:frame draw:name="pic" text:anchor-type="as-char" svg:width="4cm" svg:height="4cm"><draw:image xlink:href="${url}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p></office:text></office:body></office:document-content>`;
  const manifest = `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`;
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('application/vnd.oasis.opendocument.text'), 'mimetype', { compress: false });
  zip.addBuffer(Buffer.from(manifest), 'META-INF/manifest.xml');
  zip.addBuffer(Buffer.from(content), 'content.xml');
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function tree(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

async function convert(h: IntakeHarness, name: string, bytes: Buffer) {
  const caseId = await createCase(h.instance, name);
  const [document] = await uploadDocuments(h.instance, caseId, [{ name, bytes }]);
  return settledIntake(h.instance, document?.id ?? '', 120_000);
}

describe('security: LibreOffice conversions', () => {
  let h: IntakeHarness;
  let hits = 0;
  let server: http.Server;
  const planted: string[] = [];

  beforeAll(async () => {
    server = http.createServer((_request, response) => {
      hits += 1;
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // Another local user's profiles, planted where the old code looked (any worker thread of this process).
    for (let thread = 0; thread <= 16; thread += 1) {
      const dir = path.join(os.tmpdir(), `obscura-libreoffice-${process.pid}-${thread}`);
      fs.mkdirSync(path.join(dir, 'user'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'user', 'planted.txt'), 'a profile someone else wrote');
      planted.push(dir);
    }
    h = await startIntakeInstance();
  });
  afterAll(async () => {
    await h.close();
    server.close();
    for (const dir of planted) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an Office file with an external picture link fetches nothing, and no planted profile is used', async () => {
    const before = planted.map(tree);
    const { port } = server.address() as AddressInfo;
    const state = await convert(h, 'linked.odt', await odtWithLinkedPicture(`http://127.0.0.1:${port}/tracker.png`));
    expect(state.status, state.error ?? '').toBe('converted');
    expect(hits).toBe(0);
    expect(planted.map(tree)).toEqual(before);
    // The conversion's own profile (under the data directory) is gone afterwards.
    const leftovers = fs.readdirSync(h.instance.dataDir, { recursive: true, encoding: 'utf8' }).filter((name) => name.includes('lo-profile-'));
    expect(leftovers).toEqual([]);
  }, 150_000);
});

describe('security: what a conversion can see', () => {
  let h: IntakeHarness;
  let dir: string;
  const saved = { soffice: process.env.OBSCURA_SOFFICE, secret: process.env.AWS_SECRET_ACCESS_KEY };

  beforeAll(async () => {
    // A stand-in soffice that reports what it sees inside the PDF it "converts" to (the real path otherwise).
    dir = tempDir('obscura-fake-soffice-');
    fs.mkdirSync(path.join(dir, 'program'));
    const fake = path.join(dir, 'program', 'soffice');
    fs.writeFileSync(
      fake,
      `#!${process.execPath}
const fs = require('node:fs');
const args = process.argv.slice(2);
const outDir = args[args.indexOf('--outdir') + 1];
const read = (file) => { try { return fs.readFileSync(file, 'utf8'); } catch { return ''; } };
const report = {
  env: Object.keys(process.env).sort(),
  interfaces: read('/proc/net/dev').split('\\n').slice(2).map((line) => line.split(':')[0].trim()).filter(Boolean),
  address_space: (/Max address space\\s+(\\S+)/.exec(read('/proc/self/limits')) || [])[1],
  sees_database: fs.existsSync(process.argv[1] && ${JSON.stringify('DATA_DIR')}),
  profile: (args.find((arg) => arg.startsWith('-env:UserInstallation=')) || '').slice(22),
};
const hex = Buffer.from(JSON.stringify(report)).toString('hex');
const lines = ['REPORT'].concat(hex.match(/.{1,100}/g), ['END']);
const stream = 'BT /F1 6 Tf 10 780 Td 8 TL ' + lines.map((line) => '(' + line + ') Tj T*').join(' ') + ' ET';
const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>', '<< /Length ' + stream.length + ' >>\\nstream\\n' + stream + '\\nendstream', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
let body = '%PDF-1.4\\n'; const offsets = [];
objects.forEach((object, index) => { offsets.push(body.length); body += (index + 1) + ' 0 obj\\n' + object + '\\nendobj\\n'; });
const xref = body.length;
body += 'xref\\n0 ' + (objects.length + 1) + '\\n0000000000 65535 f \\n' + offsets.map((offset) => String(offset).padStart(10, '0') + ' 00000 n \\n').join('');
body += 'trailer\\n<< /Size ' + (objects.length + 1) + ' /Root 1 0 R >>\\nstartxref\\n' + xref + '\\n%%EOF\\n';
fs.writeFileSync(outDir + '/input.pdf', body, 'latin1');
`,
      { mode: 0o755 },
    );
    process.env.OBSCURA_SOFFICE = fake;
    process.env.AWS_SECRET_ACCESS_KEY = 'not-for-libreoffice';
    h = await startIntakeInstance();
    fs.writeFileSync(fake, fs.readFileSync(fake, 'utf8').replace(JSON.stringify('DATA_DIR'), JSON.stringify(path.join(h.instance.dataDir, 'obscura.db'))));
  });
  afterAll(async () => {
    await h.close();
    if (saved.soffice === undefined) delete process.env.OBSCURA_SOFFICE;
    else process.env.OBSCURA_SOFFICE = saved.soffice;
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
    else process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a scrubbed environment, no network but loopback, a memory limit, a profile under the data directory, and no view of the database', async () => {
    const state = await convert(h, 'probe.rtf', Buffer.from('{\\rtf1 probe}'));
    expect(state.status, state.error ?? '').toBe('converted');
    const text = pdfText(await documentBytes(h.instance, state.document_id));
    const hex = (/REPORT([\s0-9a-f]+)END/.exec(text)?.[1] ?? '').replace(/\s+/g, '');
    const report = JSON.parse(Buffer.from(hex, 'hex').toString('utf8')) as { env: string[]; interfaces: string[]; address_space: string; sees_database: boolean; profile: string };
    expect(report.env.filter((name) => /DATABASE|AWS|OBSCURA|SECRET/i.test(name))).toEqual([]);
    expect(report.interfaces.filter((name) => name !== 'lo')).toEqual([]);
    expect(Number(report.address_space)).toBe(4096 * 1024 * 1024);
    expect(report.sees_database).toBe(false);
    expect(report.profile.startsWith(`file://${fs.realpathSync(h.instance.dataDir)}`) || report.profile.startsWith(`file://${h.instance.dataDir}`)).toBe(true);
  }, 120_000);
});

describe('security: a conversion dies with its worker', () => {
  it('stopping intake mid-conversion leaves no LibreOffice process behind', async () => {
    const dir = tempDir('obscura-hung-soffice-');
    fs.mkdirSync(path.join(dir, 'program'));
    const fake = path.join(dir, 'program', 'soffice');
    // A stand-in that never finishes and starts a child of its own, as soffice starts soffice.bin.
    fs.writeFileSync(fake, `#!${process.execPath}\nrequire('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '${path.basename(dir)}'], { stdio: 'ignore' });\nsetInterval(() => {}, 1000);\n`, { mode: 0o755 });
    const saved = process.env.OBSCURA_SOFFICE;
    process.env.OBSCURA_SOFFICE = fake;
    const running = () =>
      fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).filter((pid) => {
        try {
          return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(path.basename(dir));
        } catch {
          return false;
        }
      });
    const h = await startIntakeInstance();
    try {
      const caseId = await createCase(h.instance, 'hung');
      await uploadDocuments(h.instance, caseId, [{ name: 'hung.rtf', bytes: Buffer.from('{\\rtf1 hung}') }]);
      const deadline = Date.now() + 30_000;
      while (running().length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(running().length).toBeGreaterThanOrEqual(2);
    } finally {
      await h.close();
      if (saved === undefined) delete process.env.OBSCURA_SOFFICE;
      else process.env.OBSCURA_SOFFICE = saved;
    }
    const deadline = Date.now() + 5_000;
    while (running().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const left = running();
    for (const pid of left) process.kill(Number(pid), 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    expect(left).toEqual([]);
  }, 60_000);
});

