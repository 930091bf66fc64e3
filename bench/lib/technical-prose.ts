import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Technical PDFs for the person-name false-positive rate: TeX Live package manuals on this machine
// (Debian texlive-doc, each under its package's licence) chosen by a fixed rule, the technical papers of
// ../shared/corpora/realworld-pdfs, and manual pages of the installed commands made into PDFs by real
// producers (man's groff to PostScript, Ghostscript's ps2pdf). Split by the SHA-1 of the path (of the
// manual page's file name): bucket 1 may be read while working (dev), bucket 0 and the realworld papers
// are only measured (held out); the other buckets are kept for later rounds.

const TEXLIVE = '/usr/share/doc/texlive-doc';
const REALWORLD = process.env.OBSCURA_REALWORLD_PDFS ?? path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'corpora', 'realworld-pdfs');
/** The realworld PDFs that are technical prose (a research paper, a standard's page, a LaTeX manual). */
const REALWORLD_TECHNICAL = ['tracemonkey.pdf', 'bug1019475_1.pdf', 'bug1997343.pdf'];
const MAX_PAGES = 40;
const MAN1 = '/usr/share/man/man1';
/** Manual pages are picked one in 32 by hash, leaving out the thousands of per-subcommand pages of a few suites (gcloud_alpha_…). */
const MAN_BUCKETS = 32;

export interface TechnicalDocument {
  id: string;
  split: 'dev' | 'test';
  /** Where it comes from: TeX Live manuals and realworld papers, or manual pages made into PDFs here. */
  source: 'tex-papers' | 'man-pages' | 'prose-docs';
  /** The text of each page, as pdftotext reads it (the detector gets a document's pages together, as the worker does). */
  pages: string[];
}

function pdfPages(file: string, range: readonly [number, number] = [1, MAX_PAGES]): string[] | null {
  try {
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
    if (pages === 0 || pages < range[0] || pages > range[1]) return null;
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 });
    return text.split('\f').filter((page) => /\S/.test(page));
  } catch {
    return null;
  }
}

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : entry.name.endsWith('.pdf') ? [path.join(dir, entry.name)] : []));
}

/** The PDF of one manual page (man -Tps, then ps2pdf), made once and kept in the temporary directory. */
function manPdf(file: string): string | null {
  const dir = path.join(os.tmpdir(), 'obscura-bench-man-pdf');
  const out = path.join(dir, `${path.basename(file).replace(/\.gz$/, '')}.pdf`);
  if (fs.existsSync(out)) return out;
  fs.mkdirSync(dir, { recursive: true });
  try {
    const ps = execFileSync('man', ['-Tps', '-l', file], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20, env: { ...process.env, MANWIDTH: '80' } });
    execFileSync('ps2pdf', ['-', `${out}.part`], { input: ps, stdio: ['pipe', 'ignore', 'ignore'] });
    fs.renameSync(`${out}.part`, out);
    return out;
  } catch {
    fs.rmSync(`${out}.part`, { force: true });
    return null;
  }
}

function manPages(bucket: number): string[] {
  if (!fs.existsSync(MAN1)) return [];
  return fs
    .readdirSync(MAN1)
    .filter((name) => name.endsWith('.gz') && !name.includes('_'))
    .sort()
    .filter((name) => (createHash('sha1').update(name).digest()[0] as number) % MAN_BUCKETS === bucket)
    .flatMap((name) => manPdf(path.join(MAN1, name)) ?? []);
}

/**
 * Prose documentation of other Debian packages on this machine (each under its package's licence, see
 * /usr/share/doc/<package>/copyright), a dev set of technical prose with few code tokens, as papers are: design
 * notes, policies, change logs and manuals in plain text or HTML. Never a held-out file (those are TeX Live
 * manuals, manual pages and the realworld papers) nor a source of the hand-labelled external set.
 */
const PROSE = [
  'python3/python-policy.html',
  'libjpeg62-turbo-dev/structure.txt.gz',
  'libjpeg62-turbo-dev/libjpeg.txt.gz',
  'libjpeg62-turbo-dev/wizard.txt.gz',
  'man-db/NEWS.md.gz',
  'man-db/man-db-manual.txt.gz',
  'dpkg/spec/triggers.txt',
  'time/time.html',
  'base-passwd/users-and-groups.html',
  'valgrind/html/faq.html',
  'valgrind/html/bbv-manual.html',
  'ninja-build/manual.html',
];

/**
 * Prose of the TeX community that no bucket holds (tenth round of issue 28): a font family's documentation written
 * as a paper, the TeX Live guide of 2021 (its LaTeX source, made into text by detex) and the long manuals of bucket 2
 * (over 40 pages, so in no split). None lies in a directory that holds a held-out (bucket 0) PDF.
 */
const TEX_PROSE = [
  '/usr/share/doc/fonts-lmodern/lm-info.pdf',
  `${TEXLIVE}/texlive/texlive-en/archive/live-2021.tex.gz`,
  `${TEXLIVE}/luatex/chickenize/chickenize.pdf`,
  `${TEXLIVE}/pdftex/manual/pdftex-a.pdf`,
  `${TEXLIVE}/luatex/cloze/cloze.pdf`,
  `${TEXLIVE}/lualatex/ekdosis/ekdosis.pdf`,
];

/** The thirteenth round's dev set: PDFs of TeX Live doc packages that are not installed, by path under their root. */
const TEXDOC_LIST = path.resolve(import.meta.dirname, '..', 'labels', 'technical-dev-texdoc.txt');

/** A prose document's text in pages of about 400 words, cut at line ends (HTML reduced to its text, LaTeX by detex). */
function prosePages(file: string): string[] | null {
  try {
    let text = file.endsWith('.gz') ? execFileSync('zcat', [file], { encoding: 'utf8', maxBuffer: 64 << 20 }) : fs.readFileSync(file, 'utf8');
    if (/\.tex(\.gz)?$/.test(file)) text = execFileSync('detex', [], { input: text, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['pipe', 'pipe', 'ignore'] });
    if (/\.html?$/.test(file)) {
      text = text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<(?:br|p|div|h\d|li|tr|pre|dt|dd)\b[^>]*>/gi, '\n').replace(/<[^>]+>/g, ' ');
      text = text.replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;|&rsquo;/g, '’').replace(/&amp;/g, '&');
    }
    const pages: string[] = [];
    let page: string[] = [];
    let words = 0;
    for (const line of text.split('\n').map((line) => line.replace(/[ \t]+/g, ' ').trimEnd())) {
      if (words === 0 && line.trim() === '') continue;
      page.push(line);
      words += line.match(/\S+/g)?.length ?? 0;
      if (words >= 400) {
        pages.push(page.join('\n'));
        page = [];
        words = 0;
      }
    }
    if (words > 0) pages.push(page.join('\n'));
    return pages;
  } catch {
    return null;
  }
}

/** Documents of one split with at least 200 words of text (barcode test sheets and figures have none). */
export function technicalDocuments(split: 'dev' | 'test'): TechnicalDocument[] {
  // BENCH_TECHNICAL_DEV_PROSE=1 (dev only): the prose documentation above instead (eighth round of issue 28).
  if (split === 'dev' && process.env.BENCH_TECHNICAL_DEV_PROSE === '1') {
    return PROSE.flatMap((name) => {
      const pages = prosePages(path.join('/usr/share/doc', name));
      return pages && pages.length > 0 ? [{ id: name, split, source: 'prose-docs' as const, pages }] : [];
    });
  }
  // BENCH_TECHNICAL_DEV_TEXPROSE=1 (dev only): the TeX community's prose above instead (tenth round of issue 28).
  if (split === 'dev' && process.env.BENCH_TECHNICAL_DEV_TEXPROSE === '1') {
    return TEX_PROSE.flatMap((file) => {
      const pages = file.endsWith('.pdf') ? pdfPages(file, [1, 1000]) : prosePages(file);
      return pages && pages.length > 0 ? [{ id: path.basename(file), split, source: 'tex-papers' as const, pages }] : [];
    });
  }
  // BENCH_TECHNICAL_DEV_TEXDOC=<root> (dev only): the listed PDFs of TeX Live doc packages extracted under <root>
  // without installing them (thirteenth round of issue 28; the list file says how), so no bucket can hold them.
  if (split === 'dev' && process.env.BENCH_TECHNICAL_DEV_TEXDOC) {
    const root = process.env.BENCH_TECHNICAL_DEV_TEXDOC;
    const listed = fs.readFileSync(TEXDOC_LIST, 'utf8').split('\n').filter((line) => line.trim() && !line.startsWith('#'));
    return listed.flatMap((file) => {
      const pages = pdfPages(path.join(root, file));
      const words = pages?.reduce((sum, page) => sum + (page.match(/\S+/g)?.length ?? 0), 0) ?? 0;
      return pages && words >= 200 ? [{ id: path.basename(file), split, source: 'tex-papers' as const, pages }] : [];
    });
  }
  // BENCH_TECHNICAL_DEV_BUCKET=3: a further working split (bucket 3, first read in the fourth round of issue 28).
  const bucket = split === 'test' ? 0 : Number(process.env.BENCH_TECHNICAL_DEV_BUCKET ?? 1);
  const texlive = walk(TEXLIVE)
    .sort()
    .filter((file) => (createHash('sha1').update(file).digest()[0] as number) % 4 === bucket);
  // BENCH_TECHNICAL_DEV_PAGES=41-60 (dev only): the longer TeX manuals of the dev bucket instead, a working set
  // no round read before the sixth (the held-out and dev splits keep manuals of at most 40 pages), without manual pages.
  const longer = split === 'dev' ? /^(\d+)-(\d+)$/.exec(process.env.BENCH_TECHNICAL_DEV_PAGES ?? '') : null;
  const range: [number, number] = longer ? [Number(longer[1]), Number(longer[2])] : [1, MAX_PAGES];
  const files = [...texlive, ...(split === 'test' ? REALWORLD_TECHNICAL.map((name) => path.join(REALWORLD, name)) : []), ...(longer ? [] : manPages(bucket))];
  const out: TechnicalDocument[] = [];
  for (const file of files) {
    const pages = file.startsWith(TEXLIVE) ? pdfPages(file, range) : pdfPages(file);
    const words = pages?.reduce((sum, page) => sum + (page.match(/\S+/g)?.length ?? 0), 0) ?? 0;
    if (pages && words >= 200) out.push({ id: path.basename(file), split, source: file.startsWith(path.join(os.tmpdir(), 'obscura-bench-man-pdf')) ? 'man-pages' : 'tex-papers', pages });
  }
  return out;
}
