import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bboxWords, chromiumPdf, type BboxWord } from './burn-producers.js';
import { tempDir } from './temp.js';

// Adversarial PDFs for release assurance (issue 25), made at test time by real producers installed from Debian:
// pdfTeX and hyperref, LuaLaTeX (LuaHBTeX), Chromium, Ghostscript, poppler's pdftoppm and tesseract. Every kind
// hides a secret somewhere a release must not carry it (a text layer, a link, ActualText, a form field, the
// outline or metadata, a layer that is off, outside the crop box, under an opaque image or fill) while the same
// secret is also drawn in plain view, where a test boxes it. The box is read back by an independent reader
// (poppler's pdftotext -bbox, or mutool's stext for vertical writing), never by Obscura's own code.
//
// Each producer runs once per test run (per worker process): results are cached and handed out as copies.

export interface Rect {
  /** PDF user space, origin bottom-left, of an unrotated page. */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface AdversarialPdf {
  bytes: Buffer;
  /** The text a test boxes (and which must then appear nowhere in the release, above its allowance). */
  secret: string;
  /** Text outside every box that a release must keep. */
  kept: string[];
  /** The page (1-based) holding the secret. */
  page: number;
  /** Where the secret is drawn in plain view, as an independent reader places it: the area a test boxes. */
  box: Rect;
  /** Every place the secret (or text around it) hides, as the producer was asked to write it, for the record. */
  hidden: string[];
}

const cache = new Map<string, Promise<AdversarialPdf>>();

function cached(name: string, make: () => Promise<AdversarialPdf> | AdversarialPdf): () => Promise<AdversarialPdf> {
  return async () => {
    let made = cache.get(name);
    if (!made) {
      made = Promise.resolve().then(make);
      cache.set(name, made);
      made.catch(() => cache.delete(name));
    }
    const pdf = await made;
    return { ...pdf, bytes: Buffer.from(pdf.bytes), kept: [...pdf.kept], hidden: [...pdf.hidden], box: { ...pdf.box } };
  };
}

const SECRET = 'Vashti';
const PLAIN = `The applicant ${SECRET} asked for the permit file.`;
const KEPT = ['The applicant', 'asked for the permit file.', 'Public records office, permit desk.'];
const CLOSING = '\\bigskip\nPublic records office, permit desk.';

/** Poppler's box of the word that follows `before` on its line (the plain-view copy of a secret). */
export function wordAfter(bytes: Uint8Array, before: string, word: string, page = 1): Rect {
  const words = bboxWords(bytes, page);
  for (let index = 0; index + 1 < words.length; index++) {
    const [first, second] = [words[index] as BboxWord, words[index + 1] as BboxWord];
    if (first.text === before && second.text === word && Math.abs(first.y1 - second.y1) < 1) return { x1: second.x1, y1: second.y1, x2: second.x2, y2: second.y2 };
  }
  throw new Error(`poppler finds no ${JSON.stringify(word)} after ${JSON.stringify(before)} on page ${page}`);
}

function run(command: string, args: string[], cwd: string): void {
  execFileSync(command, args, { cwd, stdio: 'pipe', timeout: 120_000 });
}

function inTemp<T>(prefix: string, work: (dir: string) => T): T {
  const dir = tempDir(prefix);
  try {
    return work(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** US letter (612 by 792 points) whatever the TeX installation's default paper. */
const LETTER = String.raw`\setlength{\paperwidth}{8.5in}\setlength{\paperheight}{11in}\ifdefined\pdfpagewidth\pdfpagewidth=\paperwidth\pdfpageheight=\paperheight\else\pagewidth=\paperwidth\pageheight=\paperheight\fi`;

/**
 * A one-page LaTeX document (article class, letter paper) typeset by `engine`, run `runs` times (hyperref writes
 * bookmarks from the previous run's .out file); `env` adds to the engine's environment.
 */
export function latex(body: string, preamble = '', options: { engine?: 'pdflatex' | 'lualatex'; runs?: number; files?: Record<string, Buffer> } = {}): Buffer {
  return inTemp('obscura-latex-', (dir) => {
    const tex = `\\documentclass{article}\n${LETTER}\n${preamble}\n\\pagestyle{empty}\n\\begin{document}\n${body}\n\\end{document}\n`;
    fs.writeFileSync(path.join(dir, 'doc.tex'), tex);
    for (const [name, bytes] of Object.entries(options.files ?? {})) fs.writeFileSync(path.join(dir, name), bytes);
    for (let index = 0; index < (options.runs ?? 1); index++) {
      // Its own TEXMFVAR: a run never depends on (or writes to) the user's luaotfload cache.
      execFileSync(options.engine ?? 'pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'doc.tex'], {
        cwd: dir,
        stdio: 'pipe',
        timeout: 120_000,
        env: { ...process.env, TEXMFVAR: path.join(dir, 'texmf-var') },
      });
    }
    return fs.readFileSync(path.join(dir, 'doc.pdf'));
  });
}

/**
 * A pdfTeX page: the plain-view secret on its first line, `middle` half an inch below it, the closing line last.
 * `box` is poppler's box of the plain-view secret.
 */
function pdfTexPage(middle: string, preamble = '', options: Parameters<typeof latex>[2] = {}): { bytes: Buffer; box: Rect } {
  const bytes = latex(`${PLAIN}\n\n\\vspace{36pt}\n${middle}\n\n${CLOSING}`, preamble, options);
  return { bytes, box: wordAfter(bytes, 'applicant', SECRET) };
}

// 1. Vertical writing ---------------------------------------------------------------------------------------

/** A character as mutool reads it: its origin (PDF user space), the font size, and its line's writing mode. */
export interface StextChar {
  c: string;
  x: number;
  y: number;
  size: number;
  vertical: boolean;
}

/** mutool's characters of a page, in PDF user space of an unrotated page. */
export function stextChars(bytes: Uint8Array, page = 1): StextChar[] {
  return inTemp('obscura-stext-chars-', (dir) => {
    const file = path.join(dir, 'in.pdf');
    fs.writeFileSync(file, bytes);
    const xml = execFileSync('mutool', ['draw', '-F', 'stext', '-o', '-', file, String(page)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const height = Number(/<page [^>]*height="([\d.]+)"/.exec(xml)?.[1] ?? 792);
    const chars: StextChar[] = [];
    for (const line of xml.split('<line ').slice(1)) {
      const vertical = /^[^>]*wmode="1"/.test(line);
      let size = 0;
      for (const match of line.matchAll(/<font name="[^"]*" size="([\d.]+)"|<char quad="[^"]+" x="([^"]+)" y="([^"]+)"[^>]* c="([^"]*)"\/>/g)) {
        if (match[1] !== undefined) {
          size = Number(match[1]);
          continue;
        }
        const c = (match[4] ?? '').replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16))).replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"');
        chars.push({ c, x: Number(match[2]), y: height - Number(match[3]), size, vertical });
      }
    }
    return chars;
  });
}

/**
 * The area of `text` in a vertical column, from mutool's characters: each glyph is the font's em square (size by
 * size) standing on its horizontal origin, ascent 0.88 em and descent 0.12 em (the ideographic em box of Noto CJK,
 * whose vertical origin is the default /DW2 880). mutool places vertical characters by their origin only.
 */
export function verticalTextBox(bytes: Uint8Array, text: string, page = 1): Rect {
  const chars = stextChars(bytes, page).filter((char) => char.vertical);
  const codes = [...text];
  for (let start = 0; start + codes.length <= chars.length; start++) {
    const run = chars.slice(start, start + codes.length);
    if (!run.every((char, index) => char.c === codes[index] && Math.abs(char.x - (run[0] as StextChar).x) < 0.5)) continue;
    return {
      x1: Math.min(...run.map((char) => char.x)),
      x2: Math.max(...run.map((char) => char.x + char.size)),
      y1: Math.min(...run.map((char) => char.y - 0.12 * char.size)),
      y2: Math.max(...run.map((char) => char.y + 0.88 * char.size)),
    };
  }
  throw new Error(`mutool finds no vertical ${text}`);
}

const NOTO_CJK = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
/**
 * LuaTeX joins a column's glyphs into one TJ and writes each step as a TJ adjustment computed for horizontal
 * writing, which in vertical writing moves the other way: a baselineskip of 15 pt puts the glyphs of 16 pt about
 * 16.9 pt apart, with a small gap between their em squares (17 pt would overlap them by a point).
 */
const BASELINESKIP = 15;

/**
 * LuaLaTeX (LuaHBTeX with luaotfload) setting two columns of Japanese top to bottom, right to left, in Noto Sans
 * CJK through Identity-V: the font is loaded with the `vert` feature and its LuaTeX font table marked vertical
 * (`identity = 'vertical'`, the backend then writes /Encoding /Identity-V), and each column is one TJ run whose
 * glyphs advance downwards by the font's vertical metrics. The secret (山田花子) sits inside the right column.
 */
export const verticalCjkPdf = cached('vertical-cjk', () => {
  const preamble = String.raw`\directlua{
  luatexbase.add_to_callback('luaotfload.patch_font', function(tfmdata)
    if tostring(tfmdata.name or ''):find('NotoSansCJK', 1, true) then
      tfmdata.writingmode = 'vertical'
      tfmdata.identity = 'vertical'
    end
  end, 'obscura.vertical')
  function obscuracolumn(s)
    for _, c in utf8.codes(s) do tex.sprint('\string\\hbox{' .. utf8.char(c) .. '}') end
  end
}
\font\cjk="[${NOTO_CJK}](0):mode=base;vert" at 16pt
\def\column#1{\vtop{\cjk\baselineskip=${BASELINESKIP}pt\lineskip=0pt\directlua{obscuracolumn('\luaescapestring{#1}')}}}`;
  const bytes = latex(String.raw`\noindent\hfill\column{公開する文書は次の通りです。}\hskip 12pt\column{東京都の申請者は山田花子です。}`, preamble, { engine: 'lualatex' });
  const secret = '山田花子';
  return { bytes, secret, kept: ['東京都の申請者は', '公開する文書は次の通りです'], page: 1, box: verticalTextBox(bytes, secret), hidden: [] };
});

/** Real vertical Japanese set by Adobe Illustrator (Noto Sans CJK through Identity-V), from the shared corpus. */
export const REAL_VERTICAL_PDF = path.join(import.meta.dirname, '../../../shared/corpora/realworld-pdfs/issue6387.pdf');

// 2. A mailto: link ------------------------------------------------------------------------------------------

export const MAIL = 'vashti.okafor@example.org';

/**
 * Chromium's print of a letter: the applicant's e-mail address in the body (boxed by a test) and, far below it,
 * a `mailto:` link to the same address under other words ("write to the applicant").
 */
export const mailtoChromiumPdf = cached('mailto-chromium', async () => {
  const bytes = await chromiumPdf(`<!doctype html><html><head><meta charset="utf-8"><style>body{font:14px serif;margin:72px}</style></head><body>
<p>Your request of 2 February is granted in part.</p>
<p>Applicant e-mail: ${MAIL}</p>
<p style="margin-top:360px">Questions? <a href="mailto:${MAIL}">Write to the applicant</a> or call the records desk.</p>
<p>Public records office, permit desk.</p>
</body></html>`);
  return {
    bytes,
    secret: MAIL,
    kept: ['Your request of 2 February is granted in part.', 'Write to the applicant', 'Public records office, permit desk.'],
    page: 1,
    box: wordAfter(bytes, 'e-mail:', MAIL),
    hidden: [`/URI (mailto:${MAIL})`],
  };
});

// 3. ActualText ----------------------------------------------------------------------------------------------

/**
 * pdfTeX with marked-content spans written into the text object (\pdfliteral direct): "V. O." carries
 * /ActualText (Vashti) and "the clerk" carries /ActualText in UTF-16BE hex (Vashti Okafor). Extraction that
 * honours ActualText (poppler) reads the secret there.
 */
export const actualTextPdf = cached('actual-text', () => {
  const hex = Buffer.from(`\ufeff${SECRET} Okafor`, 'utf16le').swap16().toString('hex').toUpperCase();
  const { bytes, box } = pdfTexPage(
    `Signed: \\pdfliteral direct{/Span <</ActualText (${SECRET})>> BDC}V.~O.\\pdfliteral direct{EMC} and\n` +
      `\\pdfliteral direct{/Span <</ActualText <${hex}>>> BDC}the clerk\\pdfliteral direct{EMC}.`,
  );
  return { bytes, secret: SECRET, kept: KEPT, page: 1, box, hidden: [`/ActualText (${SECRET})`, `/ActualText <${hex}>`] };
});

// 4. Invisible text ------------------------------------------------------------------------------------------

/**
 * A scan with tesseract's OCR layer: a pdfTeX page rendered by pdftoppm at 300 dpi (grey PNG), then
 * `tesseract page.png out pdf`, which writes the picture and, over it, the recognised words as invisible text
 * (render mode 3, GlyphLessFont). The page is letter size like the pdfTeX page, so the secret's box is poppler's
 * box of it in the pdfTeX page (independent of tesseract's estimate).
 */
export const ocrLayerPdf = cached('ocr-layer', () =>
  inTemp('obscura-ocr-layer-', (dir) => {
    const { bytes: typeset, box } = pdfTexPage('The record was scanned at the permit desk.');
    fs.writeFileSync(path.join(dir, 'typeset.pdf'), typeset);
    run('pdftoppm', ['-r', '300', '-gray', '-png', '-singlefile', 'typeset.pdf', 'page'], dir);
    run('tesseract', ['page.png', 'out', '--dpi', '300', '-l', 'eng', 'pdf'], dir);
    const bytes = fs.readFileSync(path.join(dir, 'out.pdf'));
    return { bytes, secret: SECRET, kept: ['applicant', 'permit', 'scanned'], page: 1, box, hidden: ['3 Tr (tesseract GlyphLessFont layer)'] };
  }),
);

/**
 * pdfTeX text drawn invisibly (render mode 3 set with \pdfliteral direct) that is no OCR layer of any picture:
 * "Vashti has a prior conviction." on its own line, which a viewer shows as blank; the secret is also in plain view.
 */
export const invisibleTextPdf = cached('invisible-text', () => {
  const { bytes, box } = pdfTexPage(`Noted: \\pdfliteral direct{3 Tr}${SECRET} has a prior conviction.\\pdfliteral direct{0 Tr} Shown again.`);
  return { bytes, secret: SECRET, kept: [...KEPT, 'Noted:', 'Shown again.'], page: 1, box, hidden: [`3 Tr: ${SECRET} has a prior conviction.`] };
});

// 5. Form fields ---------------------------------------------------------------------------------------------

/**
 * hyperref's filled text fields (pdfTeX): one whose value (/V) is "Vashti Okafor", one whose name (/T) is
 * "reviewer.Vashti". hyperref's Form environment needs ZapfDingbats metrics (texlive-fonts-recommended).
 */
export const formFieldsPdf = cached('form-fields', () => {
  const { bytes, box } = pdfTexPage(
    `\\begin{Form}\n\\TextField[name=applicant,value={${SECRET} Okafor},width=2in]{Applicant:}\n\n` +
      `\\TextField[name={reviewer.${SECRET}},value={approved},width=2in]{Reviewer:}\n\\end{Form}`,
    '\\usepackage{hyperref}',
  );
  return { bytes, secret: SECRET, kept: [...KEPT, 'Applicant:', 'Reviewer:'], page: 1, box, hidden: [`/V ${SECRET} Okafor`, `/T reviewer.${SECRET}`] };
});

// 6. Outline and metadata ------------------------------------------------------------------------------------

export const TITLE = `Permit file of ${SECRET} Okafor`;

/**
 * pdfTeX with hyperref: the document title, subject and keywords in /Info (UTF-16 with hyperref's unicode
 * default), an XMP packet with the same dc:title (a /Metadata stream written by \pdfobj, referenced from the
 * catalogue), and a bookmark "Statement of Vashti".
 */
export const outlineTitlePdf = cached('outline-title', () => {
  const xmp =
    '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns\\#">' +
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">' +
    TITLE +
    '</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>';
  const preamble =
    `\\usepackage[pdftitle={${TITLE}},pdfsubject={${SECRET}},pdfkeywords={${SECRET}, permit}]{hyperref}\n` +
    `\\immediate\\pdfobj stream attr {/Type /Metadata /Subtype /XML} {${xmp}}\n\\pdfcatalog{/Metadata \\the\\pdflastobj\\space 0 R}`;
  const { bytes, box } = pdfTexPage(`\\pdfbookmark[1]{Statement of ${SECRET}}{statement}The statement follows.`, preamble, { runs: 2 });
  return { bytes, secret: SECRET, kept: [...KEPT, 'The statement follows.'], page: 1, box, hidden: [`/Title ${TITLE}`, `dc:title ${TITLE}`, `outline: Statement of ${SECRET}`] };
});

// 7. Optional content that is off ----------------------------------------------------------------------------

export const NOTE = `Reviewer note: ${SECRET} has a prior conviction.`;

/**
 * pdfTeX with an optional-content group "Internal notes" (\pdfobj), listed in /OCProperties with the default
 * configuration turning it /OFF, and the note drawn inside /OC /OCnotes BDC … EMC: a viewer hides the note.
 */
export const hiddenLayerPdf = cached('hidden-layer', () => {
  const preamble = [
    '\\immediate\\pdfobj{<</Type /OCG /Name (Internal notes)>>}',
    '\\edef\\obscuraocg{\\the\\pdflastobj\\space 0 R}',
    '\\pdfcatalog{/OCProperties <</OCGs [\\obscuraocg] /D <</Order [\\obscuraocg] /ON [] /OFF [\\obscuraocg]>>>>}',
    '\\edef\\obscuraresources{\\noexpand\\pdfpageresources{/Properties <</OCnotes \\obscuraocg>>}}\\obscuraresources',
  ].join('\n');
  const { bytes, box } = pdfTexPage(`\\pdfliteral{/OC /OCnotes BDC}${NOTE}\\pdfliteral{EMC}`, preamble);
  return { bytes, secret: SECRET, kept: KEPT, page: 1, box, hidden: [`layer off: ${NOTE}`] };
});

// 8. Outside the crop box ------------------------------------------------------------------------------------

export const CROP_TOP = 640;

/** pdfTeX with /CropBox [0 0 612 640]: the first line ("Outside note: Vashti lives at the shelter.") lies above it. */
export const outsideCropBoxPdf = cached('outside-crop-box', () => {
  const bytes = latex(`Outside note: ${SECRET} lives at the shelter.\n\n\\vspace*{2in}\n${PLAIN}\n\n${CLOSING}`, `\\pdfpageattr{/CropBox [0 0 612 ${CROP_TOP}]}`);
  return { bytes, secret: SECRET, kept: KEPT, page: 1, box: wordAfter(bytes, 'applicant', SECRET), hidden: [`above the crop box: Outside note: ${SECRET} lives at the shelter.`] };
});

// 9. Under an opaque image or fill ---------------------------------------------------------------------------

/** Ghostscript's opaque grey PNG (160 by 48 pixels, one flat grey). */
function coverPng(): Buffer {
  return inTemp('obscura-cover-', (dir) => {
    run('gs', ['-q', '-dSAFER', '-sDEVICE=pnggray', '-g160x48', '-r72', '-o', 'cover.png', '-c', '0.35 setgray 0 0 160 48 rectfill showpage'], dir);
    return fs.readFileSync(path.join(dir, 'cover.png'));
  });
}

/** pdfTeX: "Covered: Vashti" with Ghostscript's opaque PNG placed over the word by graphicx (drawn after it). */
export const underImagePdf = cached('under-image', () => {
  const { bytes, box } = pdfTexPage(`Covered: \\makebox[0pt][l]{${SECRET}}\\raisebox{-3pt}{\\includegraphics[width=36pt,height=12pt]{cover.png}} and more.`, '\\usepackage{graphicx}', {
    files: { 'cover.png': coverPng() },
  });
  return { bytes, secret: SECRET, kept: [...KEPT, 'Covered:', 'and more.'], page: 1, box, hidden: [`under an image: ${JSON.stringify(wordAfter(bytes, 'Covered:', SECRET))}`] };
});

/** pdfTeX: "Filled: Vashti" with an opaque rectangle (\pdfliteral q … re f Q) drawn over the word. */
export const underFillPdf = cached('under-fill', () => {
  const { bytes, box } = pdfTexPage(`Filled: \\makebox[0pt][l]{${SECRET}}\\pdfliteral{q 0.2 0.2 0.6 rg -1 -3 36 12 re f Q}\\hspace{36pt} and more.`);
  return { bytes, secret: SECRET, kept: [...KEPT, 'Filled:', 'and more.'], page: 1, box, hidden: [`under a fill: ${JSON.stringify(wordAfter(bytes, 'Filled:', SECRET))}`] };
});

// 10. A link whose URI repeats the secret --------------------------------------------------------------------

export const URIS = [`https://example.org/records?name=${SECRET}`, 'https://example.org/find?who=%56ashti'];

/** pdfTeX with hyperref: two links, one URI with the secret as is, one with its first letter percent-encoded. */
export const linkUriPdf = cached('link-uri', () => {
  const { bytes, box } = pdfTexPage(`See the \\href{${URIS[0]}}{public link} and \\href{${(URIS[1] as string).replace('%', '\\%')}}{search}.`, '\\usepackage[hidelinks]{hyperref}');
  return { bytes, secret: SECRET, kept: [...KEPT, 'public link'], page: 1, box, hidden: URIS.map((uri) => `/URI (${uri})`) };
});

/** Every kind, by name, for tests that run over all of them. */
export const ADVERSARIAL_KINDS = {
  'vertical-cjk': verticalCjkPdf,
  'mailto-link': mailtoChromiumPdf,
  'actual-text': actualTextPdf,
  'ocr-layer': ocrLayerPdf,
  'invisible-text': invisibleTextPdf,
  'form-fields': formFieldsPdf,
  'outline-title': outlineTitlePdf,
  'hidden-layer': hiddenLayerPdf,
  'outside-crop-box': outsideCropBoxPdf,
  'under-image': underImagePdf,
  'under-fill': underFillPdf,
  'link-uri': linkUriPdf,
} as const;
