import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { embeddedOdfObjects } from './odf-objects.js';
import { confinedCommand, freshProfile, LIBREOFFICE_MEMORY_MB, scrubbedEnvironment } from './office-sandbox.js';
import { legacyEmbeddedFiles, OLE_MAGIC, unwrapOleObject } from './ole-package.js';
import { listZip, readZipEntry } from './zip.js';

const PASSWORD_PROTECTED = 'the file is password-protected (an encrypted Office package); remove the password in Office and upload it again';

/**
 * Checks an Office file before LibreOffice opens it: an OOXML/ODF name on an OLE file is an encrypted
 * (password-protected) package; a zip whose entries unpack past the limits is an archive bomb. Returns the
 * embedded objects and attachments to make child documents of (OOXML word/, xl/ and ppt/embeddings; ODF
 * object folders, see odf-objects.ts); files wrapped in OLE objects are unwrapped (ole-package.ts).
 */
export async function inspectOffice(
  file: string,
  fileName: string,
  limits: { maxUncompressedBytes: number; maxCompressionRatio: number },
): Promise<{ embedded: { name: string; bytes: Buffer }[]; warnings: string[] }> {
  const ext = path.extname(fileName).toLowerCase();
  const head = Buffer.alloc(8);
  const handle = await fsp.open(file, 'r');
  await handle.read(head, 0, 8, 0).finally(() => handle.close());
  const zipped = ['.docx', '.xlsx', '.pptx', '.odt', '.ods', '.odp'].includes(ext);
  if (zipped && head.equals(OLE_MAGIC)) throw new Error(PASSWORD_PROTECTED);
  if (['.doc', '.xls'].includes(ext) && head.equals(OLE_MAGIC)) {
    const size = (await fsp.stat(file)).size;
    if (size > limits.maxUncompressedBytes) return { embedded: [], warnings: [] };
    return legacyEmbeddedFiles(await fsp.readFile(file), 10_000);
  }
  if (!zipped || head.subarray(0, 2).toString('latin1') !== 'PK') return { embedded: [], warnings: [] };
  const size = (await fsp.stat(file)).size;
  const entries = await listZip(file);
  const total = entries.reduce((sum, entry) => sum + entry.uncompressed, 0);
  if (total > limits.maxUncompressedBytes) {
    throw new Error(`the package unpacks to ${total} bytes, more than the limit of ${limits.maxUncompressedBytes} (an archive bomb or an oversized file)`);
  }
  const worst = entries.reduce((max, entry) => Math.max(max, entry.uncompressed / Math.max(1, entry.compressed)), 0);
  if (total > 1_000_000 && (worst > limits.maxCompressionRatio || total / Math.max(1, size) > limits.maxCompressionRatio)) {
    throw new Error(`the package compresses more than ${limits.maxCompressionRatio}:1 (an archive bomb); refused`);
  }
  // ODF encrypts each part and says so in its manifest; LibreOffice would only fail to load it.
  if (ext.startsWith('.od') && entries.some((entry) => entry.name === 'META-INF/manifest.xml')) {
    const manifest = (await readZipEntry(file, 'META-INF/manifest.xml', 4 * 1024 * 1024)).toString('utf8');
    if (/<manifest:encryption-data\b/.test(manifest)) throw new Error(PASSWORD_PROTECTED);
  }
  if (ext.startsWith('.od')) return { embedded: await embeddedOdfObjects(file, entries, limits.maxUncompressedBytes), warnings: [] };
  const embedded: { name: string; bytes: Buffer }[] = [];
  const warnings: string[] = [];
  for (const entry of entries) {
    if (!/^(word|xl|ppt)\/embeddings\/[^/]+$/.test(entry.name) || entry.uncompressed === 0) continue;
    const name = path.posix.basename(entry.name);
    const bytes = await readZipEntry(file, entry.name, limits.maxUncompressedBytes);
    // An OLE object wrapping a file (Word's "Package") becomes that file; other OLE objects stay as they are.
    const unwrapped = unwrapOleObject(name, bytes);
    if (unwrapped.warning) warnings.push(unwrapped.warning);
    else embedded.push(unwrapped.file ?? { name, bytes });
  }
  return { embedded, warnings };
}

// Process groups of running conversions: ended when this worker thread exits, whatever the sandbox.
const running = new Set<number>();
process.once('exit', () => {
  for (const group of running) killGroup(group);
});

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Converts with LibreOffice confined (office-sandbox.ts): a fresh profile under the work folder, removed
 * afterwards; killed with its children past the timeout or when the worker ends.
 */
export async function convertWithLibreOffice(soffice: string, file: string, fileName: string, workDir: string, timeoutMs: number): Promise<string> {
  const outDir = await fsp.mkdtemp(path.join(workDir, 'lo-'));
  const ext = path.extname(fileName).toLowerCase().replace(/[^.a-z0-9]/g, '') || '.bin';
  const input = path.join(outDir, `input${ext}`);
  await fsp.copyFile(file, input);
  const profile = await freshProfile(workDir);
  const args = ['--headless', '--norestore', '--nolockcheck', '--nodefault', '--nologo', `-env:UserInstallation=${pathToFileURL(profile).href}`, '--convert-to', 'pdf', '--outdir', outDir, input];
  const confined = confinedCommand(soffice, args, workDir);
  const child = spawn(confined.command, confined.args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: scrubbedEnvironment(profile), cwd: workDir });
  if (child.pid) running.add(child.pid);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000)));
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000)));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid) killGroup(child.pid);
    else child.kill('SIGKILL');
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  }).finally(() => {
    clearTimeout(timer);
    if (child.pid) {
      // Anything it left behind in its group goes with it.
      killGroup(child.pid);
      running.delete(child.pid);
    }
  });
  await fsp.rm(input, { force: true });
  await fsp.rm(profile, { recursive: true, force: true });
  const pdf = path.join(outDir, 'input.pdf');
  if (timedOut) throw new Error(`LibreOffice did not finish converting within ${Math.round(timeoutMs / 1000)} s (a password-protected or damaged file makes it wait); stopped`);
  if (code !== 0 || !fs.existsSync(pdf) || fs.statSync(pdf).size === 0) {
    throw new Error(`LibreOffice could not convert the file (password-protected, damaged, not what its name says, or past its ${LIBREOFFICE_MEMORY_MB} MiB memory limit); exit ${code}: ${output.trim().split('\n').slice(-2).join(' ')}`);
  }
  return pdf;
}
