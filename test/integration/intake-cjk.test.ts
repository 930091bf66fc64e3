import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { tempDir } from '../helpers/temp.js';
import { composeMessage, documentBytes, intakeOf, pdfFonts, pdfText, settledIntake, startIntakeInstance, type IntakeHarness } from '../helpers/intake-support.js';

// Chinese, Japanese and Korean messages (nodemailer writes them as UTF-8 with encoded-word headers). The
// rendered PDF must carry the same characters in its text layer (pdftotext) and draw real glyphs: each
// sample line repeats one character, and poppler's rendering of each line must have ink and differ from the
// others (a missing glyph draws the same .notdef box or nothing for every character). Without any CJK font
// (fontconfig given an empty configuration) the document says so in its intake warnings.

const subject = '港口疏浚招标 / 入札のお知らせ / 준설 입찰 안내';
const sender = { name: '王芳', address: 'wang.fang@example.cn' };
const paragraphs = ['港口委员会审查了疏浚招标和灯塔维修预算。', '会議は木曜日に市役所で開かれます。カタカナもひらがなも。', '위원회는 목요일에 시청에서 회의를 합니다.'];
const samples = ['中', '語', 'の', 'カ', '한', '글'];
const sampleLines = samples.map((char) => char.repeat(6));

function message(): Promise<Buffer> {
  return composeMessage({ from: sender, to: 'records@city.example.gov', subject, messageId: '<cjk-1@example.cn>', date: new Date('2025-05-01T09:00:00Z'), text: [...paragraphs, '', ...sampleLines].join('\n') });
}

/** Word boxes (points) of the first page, as pdftotext -bbox reports them. */
function wordBoxes(pdf: string): { text: string; xMin: number; yMin: number; xMax: number; yMax: number }[] {
  const html = execFileSync('pdftotext', ['-bbox', '-f', '1', '-l', '1', pdf, '-'], { encoding: 'utf8' });
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({ text: m[5] ?? '', xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]) }));
}

/** A grey crop of the page rendered by poppler at 144 dpi (PGM), as pixel values. */
function crop(pdf: string, box: { x: number; y: number; w: number; h: number }): Uint8Array {
  const scale = 2;
  const out = path.join(path.dirname(pdf), `crop-${box.x}-${box.y}`);
  execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-r', '144', '-gray', '-x', String(Math.round(box.x * scale)), '-y', String(Math.round(box.y * scale)), '-W', String(box.w * scale), '-H', String(box.h * scale), '-singlefile', pdf, out]);
  const pgm = fs.readFileSync(`${out}.pgm`);
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.toString('latin1', 0, 40));
  if (!header) throw new Error('not a PGM');
  return new Uint8Array(pgm.subarray(header[0].length));
}

let h: IntakeHarness | null = null;
afterAll(async () => {
  await h?.close();
});

describe('CJK e-mail', () => {
  it('renders Chinese, Japanese and Korean with real glyphs, searchable, no warnings', async () => {
    h = await startIntakeInstance();
    const caseId = await createCase(h.instance, 'CJK intake');
    const [document] = await uploadDocuments(h.instance, caseId, [{ name: 'cjk.eml', bytes: await message() }]);
    const id = document?.id ?? '';
    const state = await settledIntake(h.instance, id, 120_000);
    expect(state).toMatchObject({ status: 'converted', error: null, warnings: [] });
    const email = ((await h.instance.request({ method: 'GET', url: `/api/v1/documents/${id}` })).json() as { data: { email: { subject: string; from: string } } }).data.email;
    expect(email).toMatchObject({ subject, from: `${sender.name} <${sender.address}>` });
    const bytes = await documentBytes(h.instance, id);
    const text = pdfText(bytes);
    for (const expected of [...paragraphs, ...sampleLines, ...subject.split(' / '), sender.name]) expect(text).toContain(expected);
    expect(text).not.toContain('\uFFFD');
    // Two embedded fonts at least: DejaVu and the CJK face, both with ToUnicode maps.
    const fonts = pdfFonts(bytes).split('\n').slice(2).filter(Boolean);
    expect(fonts.some((line) => !/DejaVu/.test(line) && /\byes\s+\w+\s+yes\b/.test(line))).toBe(true);

    const dir = tempDir('obscura-cjk-');
    try {
      const pdf = path.join(dir, 'cjk.pdf');
      fs.writeFileSync(pdf, bytes);
      // MuPDF and qpdf read the embedded fonts without complaint (a broken CFF subset makes FreeType refuse it).
      const mutool = spawnSync('mutool', ['draw', '-o', path.join(dir, 'page.png'), '-r', '72', pdf], { encoding: 'utf8' });
      expect(mutool.status).toBe(0);
      expect(mutool.stderr).not.toMatch(/error|broken|invalid|cannot/i);
      execFileSync('qpdf', ['--check', pdf], { stdio: 'ignore' });
      const boxes = wordBoxes(pdf);
      const lines = sampleLines.map((line) => {
        const box = boxes.find((word) => word.text === line);
        if (!box) throw new Error(`no word box for ${line}`);
        return box;
      });
      const w = Math.floor(Math.min(...lines.map((box) => box.xMax - box.xMin)));
      const hgt = Math.floor(Math.min(...lines.map((box) => box.yMax - box.yMin)));
      expect(w).toBeGreaterThan(30);
      const crops = lines.map((box) => crop(pdf, { x: box.xMin, y: box.yMin, w, h: hgt }));
      const inkOf = (pixels: Uint8Array) => pixels.reduce((sum, value) => sum + (value < 128 ? 1 : 0), 0);
      for (const [index, pixels] of crops.entries()) expect(inkOf(pixels), samples[index]).toBeGreaterThan(pixels.length * 0.03);
      for (let a = 0; a < crops.length; a += 1) {
        for (let b = a + 1; b < crops.length; b += 1) {
          const [x, y] = [crops[a] as Uint8Array, crops[b] as Uint8Array];
          let differing = 0;
          for (let index = 0; index < x.length; index += 1) if (Math.abs((x[index] ?? 0) - (y[index] ?? 0)) > 96) differing += 1;
          expect(differing, `${samples[a]} and ${samples[b]} draw alike`).toBeGreaterThan(Math.min(inkOf(x), inkOf(y)) * 0.2);
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await h.close();
    h = null;
  }, 180_000);

  it('without any CJK font: boxes in the PDF, and the warnings say which font is missing', async () => {
    const dir = tempDir('obscura-no-fonts-');
    const conf = path.join(dir, 'fonts.conf');
    fs.writeFileSync(conf, '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig></fontconfig>\n');
    const before = process.env.FONTCONFIG_FILE;
    // Worker threads take the environment when they start: this harness's workers see no fonts at all.
    process.env.FONTCONFIG_FILE = conf;
    try {
      h = await startIntakeInstance();
      const caseId = await createCase(h.instance, 'CJK without fonts');
      const [document] = await uploadDocuments(h.instance, caseId, [{ name: 'cjk.eml', bytes: await message() }]);
      const state = await settledIntake(h.instance, document?.id ?? '', 120_000);
      expect(state.status).toBe('converted');
      expect(state.warnings.join('\n')).toMatch(/^\d+ Chinese, Japanese or Korean characters show as boxes .*no Chinese, Japanese or Korean font is installed \(Debian\/Ubuntu: apt-get install fonts-noto-cjk\)/m);
      const text = pdfText(await documentBytes(h.instance, document?.id ?? ''));
      expect(text).toContain('\uFFFD');
      expect(text).not.toContain('港口');
      expect(text).toContain('wang.fang@example.cn');
      expect((await intakeOf(h.instance, document?.id ?? '')).warnings).toEqual(state.warnings);
    } finally {
      await h?.close();
      h = null;
      if (before === undefined) delete process.env.FONTCONFIG_FILE;
      else process.env.FONTCONFIG_FILE = before;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
