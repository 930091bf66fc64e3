import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import { NER_DIR } from '../../scripts/ner-corpus.js';

// Externally written text that holds pattern kinds (phones, e-mail and IP addresses, street addresses …),
// read from where it already sits on the machine; none of it is copied into the repository. Labels for it
// (offsets, written by hand: docs/detection-model.md, "Pattern kinds on external text") live in
// bench/labels/external-pii.json and name each document by the ids below.

export interface SourceDocument {
  /** Stable id: `<source>:<name>`. */
  id: string;
  source: string;
  text: string;
}

export interface SourceInfo {
  source: string;
  where: string;
  licence: string;
  /** Why the source may be missing on another machine. */
  note: string;
}

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const require = createRequire(path.join(ROOT, 'package.json'));

export const SOURCES: readonly SourceInfo[] = [
  {
    source: 'enron',
    where: 'node_modules/pst-extractor/example/testdata/enron.pst (mailbox lokay-m, every message body)',
    licence: 'EDRM Enron Email Data Set, CC BY 3.0 US (ZL Technologies, Inc., http://www.zlti.com); package MIT',
    note: 'ships with the pst-extractor npm package, a dependency',
  },
  {
    source: 'debian-copyright',
    where: '/usr/share/doc/<package>/copyright, a fixed list of packages',
    licence: 'Debian packaging notices, each under its package licence (all DFSG-free)',
    note: 'present where the listed Debian packages are installed',
  },
  {
    source: 'debian-copyright-b',
    where: '/usr/share/doc/<package>/copyright, a second fixed list of packages, disjoint from the first',
    licence: 'Debian packaging notices, each under its package licence (all DFSG-free)',
    note: 'present where the listed Debian packages are installed; labelled later, as a fresh held-out set',
  },
  {
    source: 'debian-copyright-c',
    where: '/usr/share/doc/<package>/copyright, a third fixed list of packages, disjoint from the other two',
    licence: 'Debian packaging notices, each under its package licence (all DFSG-free)',
    note: 'present where the listed Debian packages are installed; labelled after the second round of fixes, as a held-out check of them',
  },
  {
    source: 'texlive-readme',
    where: '/usr/share/doc/texlive-doc/**/README* (plain or gzip text; not .pdf or .html), Debian texlive-*-doc packages',
    licence: 'TeX Live documentation, each under its package licence (LPPL, GPL, public domain; all free)',
    note: 'present where the Debian TeX Live documentation is installed; labelled later, as a fresh held-out set',
  },
  {
    source: 'readme',
    where: 'README.md of ipaddr.js, @fastify/proxy-addr and semver in node_modules',
    licence: 'MIT (ipaddr.js, proxy-addr), ISC (semver)',
    note: 'npm dependencies of the project',
  },
  {
    source: 'nodejs-doc',
    where: '/usr/share/doc/nodejs/api/{dns,net,dgram,os}.md (Debian nodejs-doc)',
    licence: 'Node.js documentation, MIT',
    note: 'present where Debian nodejs-doc is installed',
  },
  {
    source: 'sec-filings',
    where: '../shared/corpora/ner-train/sec-filings/FIN{3,5}.txt, one document per -DOCSTART-, detokenised (secText)',
    licence: 'SEC filings NER data, Salinas Alvarado et al. 2015, CC BY 3.0 (loan agreements filed with the SEC)',
    note: 'the shared corpora folder beside the checkout; OBSCURA_NER_DIR overrides. Only names were ever trained on FIN5; no pattern rule comes from it',
  },
  {
    source: 'realworld-pdf',
    where: '../shared/corpora/realworld-pdfs/*.pdf, text by pdftotext (poppler, reading order)',
    licence: 'per file: pdf.js bug attachments, py-pdf/sample-files CC BY-SA 4.0 (see that folder\'s SOURCES.md)',
    note: 'the shared corpora folder beside the checkout; OBSCURA_REALWORLD_PDFS overrides',
  },
];

/** The Debian packages whose copyright files are labelled (chosen by name hash, see docs/detection-model.md). */
export const DEBIAN_PACKAGES_FILE = path.join(ROOT, 'bench', 'labels', 'external-pii-debian.txt');
/** The second, disjoint Debian list (SHA-1 first byte ≡ 4 mod 8), labelled after the first round of fixes. */
export const DEBIAN_PACKAGES_FILE_B = path.join(ROOT, 'bench', 'labels', 'external-pii-debian-b.txt');
/** The third, disjoint Debian list (SHA-1 first byte ≡ 2 mod 8), labelled after the second round of fixes. */
export const DEBIAN_PACKAGES_FILE_C = path.join(ROOT, 'bench', 'labels', 'external-pii-debian-c.txt');

const EDRM_FOOTER = /\s*\*{11}\r?\nEDRM Enron Email Data Set[\s\S]*?\*{11}\s*$/;

const normalise = (text: string) => text.replace(/\r\n?/g, '\n');

function enron(): SourceDocument[] {
  const file = path.join(path.dirname(require.resolve('pst-extractor/package.json')), 'example', 'testdata', 'enron.pst');
  if (!fs.existsSync(file)) return [];
  const { PSTFile } = require('pst-extractor') as typeof import('pst-extractor');
  const pst = new PSTFile(file);
  const documents: SourceDocument[] = [];
  const walk = (folder: import('pst-extractor').PSTFolder) => {
    if (folder.hasSubfolders) for (const sub of folder.getSubFolders()) walk(sub);
    if (folder.contentCount === 0) return;
    for (let message = folder.getNextChild(); message; message = folder.getNextChild()) {
      if (message.messageClass !== 'IPM.Note') continue;
      const body = normalise(String(message.body ?? '')).replace(EDRM_FOOTER, '\n');
      documents.push({ id: `enron:${message.descriptorNodeId}`, source: 'enron', text: body });
    }
  };
  walk(pst.getRootFolder());
  return documents;
}

function debianCopyright(source = 'debian-copyright', list = DEBIAN_PACKAGES_FILE): SourceDocument[] {
  if (!fs.existsSync(list)) return [];
  const names = fs.readFileSync(list, 'utf8').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  return names.flatMap((name) => {
    const file = path.join('/usr/share/doc', name, 'copyright');
    return fs.existsSync(file) ? [{ id: `${source}:${name}`, source, text: normalise(fs.readFileSync(file, 'utf8')) }] : [];
  });
}

function texliveReadmes(): SourceDocument[] {
  const root = '/usr/share/doc/texlive-doc';
  if (!fs.existsSync(root)) return [];
  const files = (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((name) => /^README/i.test(path.basename(name)) && !/\.(?:pdf|html)$/i.test(name) && fs.statSync(path.join(root, name)).isFile())
    .sort();
  return files.map((name) => {
    const bytes = fs.readFileSync(path.join(root, name));
    const text = new TextDecoder('utf-8').decode(name.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes);
    return { id: `texlive-readme:${name}`, source: 'texlive-readme', text: normalise(text) };
  });
}

function readmes(): SourceDocument[] {
  return ['ipaddr.js', '@fastify/proxy-addr', 'semver'].flatMap((name) => {
    try {
      const file = path.join(path.dirname(require.resolve(`${name}/package.json`)), 'README.md');
      return fs.existsSync(file) ? [{ id: `readme:${name}`, source: 'readme', text: normalise(fs.readFileSync(file, 'utf8')) }] : [];
    } catch {
      return [];
    }
  });
}

function nodejsDoc(): SourceDocument[] {
  return ['dns', 'net', 'dgram', 'os'].flatMap((name) => {
    const file = `/usr/share/doc/nodejs/api/${name}.md`;
    return fs.existsSync(file) ? [{ id: `nodejs-doc:${name}`, source: 'nodejs-doc', text: normalise(fs.readFileSync(file, 'utf8')) }] : [];
  });
}

function realworldPdfs(): SourceDocument[] {
  const folder = process.env.OBSCURA_REALWORLD_PDFS ?? path.resolve(ROOT, '..', 'shared', 'corpora', 'realworld-pdfs');
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.pdf'))
    .sort()
    .flatMap((name) => {
      try {
        const text = execFileSync('pdftotext', ['-enc', 'UTF-8', path.join(folder, name), '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 });
        return [{ id: `realworld-pdf:${name}`, source: 'realworld-pdf', text: normalise(text).replace(/\f/g, '\n') }];
      } catch {
        return [];
      }
    });
}

/**
 * A CoNLL document back to text: tokens joined by spaces, a sentence per line; no space before closing
 * punctuation or after an opening bracket, '$', '#' or a '+' before digits; digit-dash-digit joined
 * ("858 - 7048" → "858-7048"); an e-mail address's tokens joined around its '@' and dots.
 */
export function secText(tokens: readonly string[][]): string {
  return tokens
    .map((sentence) => {
      let line = '';
      sentence.forEach((token, index) => {
        const previous = sentence[index - 1] ?? '';
        const glue = index === 0 || /^(?:[.,;:!?)\]}%]|'s|n't)$/.test(token) || /^[(\[{$#]$/.test(previous) || (previous === '+' && /^\d/.test(token));
        line += glue ? token : ` ${token}`;
      });
      return line
        .replace(/(\d) - (?=\d)/g, '$1-')
        .replace(/([A-Za-z0-9_-]+(?:\. [A-Za-z0-9_-]+)*) @ ([A-Za-z0-9-]+(?:\. [A-Za-z0-9-]+)+)/g, (_, local: string, domain: string) => `${local.replace(/\. /g, '.')}@${domain.replace(/\. /g, '.')}`);
    })
    .join('\n');
}

function secFilings(): SourceDocument[] {
  const folder = NER_DIR;
  return ['FIN3', 'FIN5'].flatMap((name) => {
    const file = path.join(folder, 'sec-filings', `${name}.txt`);
    if (!fs.existsSync(file)) return [];
    const documents: string[][][] = [];
    let sentence: string[] = [];
    const close = () => {
      if (sentence.length > 0) documents.at(-1)?.push(sentence);
      sentence = [];
    };
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (line.startsWith('-DOCSTART-')) {
        close();
        documents.push([]);
      } else if (line.trim() === '') close();
      else sentence.push(line.split(' ')[0] ?? '');
    }
    close();
    return documents.map((tokens, index) => ({ id: `sec-filings:${name}#${index + 1}`, source: 'sec-filings', text: secText(tokens) }));
  });
}

/** Every external document available here, by id. */
export function loadSourceDocuments(): Map<string, SourceDocument> {
  const all = [...enron(), ...debianCopyright(), ...debianCopyright('debian-copyright-b', DEBIAN_PACKAGES_FILE_B), ...debianCopyright('debian-copyright-c', DEBIAN_PACKAGES_FILE_C), ...texliveReadmes(), ...readmes(), ...nodejsDoc(), ...secFilings(), ...realworldPdfs()];
  return new Map(all.map((document) => [document.id, document]));
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export const LABELS_FILE = path.join(ROOT, 'bench', 'labels', 'external-pii.json');

export interface LabelledDocument {
  id: string;
  source: string;
  text: string;
  spans: { start: number; end: number; kind: string }[];
}

/**
 * The labelled external documents present on this machine. A document whose text is not the one that was
 * labelled (another package version) is left out and named in `changed`, so the labels never shift.
 */
export function labelledDocuments(): { documents: LabelledDocument[]; missing: string[]; changed: string[] } {
  const file = JSON.parse(fs.readFileSync(LABELS_FILE, 'utf8')) as { documents: { id: string; sha256: string; spans: { start: number; end: number; kind: string; value: string }[] }[] };
  const available = loadSourceDocuments();
  const documents: LabelledDocument[] = [];
  const missing: string[] = [];
  const changed: string[] = [];
  for (const entry of file.documents) {
    const document = available.get(entry.id);
    if (!document) missing.push(entry.id);
    else if (sha256(document.text) !== entry.sha256 || entry.spans.some((span) => document.text.slice(span.start, span.end) !== span.value)) changed.push(entry.id);
    else documents.push({ id: entry.id, source: document.source, text: document.text, spans: entry.spans.map(({ start, end, kind }) => ({ start, end, kind })) });
  }
  return { documents, missing, changed };
}
