import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SAFEGUARDS } from '../../main/common/schemas/releases.js';
import { type TestInstance } from './instance.js';
import { tempDir } from './temp.js';

// Poppler's view of a PDF's words (pdftotext -bbox): the independent oracle of the fidelity tests.

export interface BoxedWord {
  page: number;
  text: string;
  /** PDF user space of the page (origin bottom-left), from poppler's top-left pixels at 72 dpi. */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

function decode(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

/** Every word of every page with its box, as pdftotext -bbox reports it (media box origin assumed at 0,0). */
export function popplerWords(bytes: Buffer): BoxedWord[] {
  const dir = tempDir('obscura-bbox-');
  try {
    const file = path.join(dir, 'in.pdf');
    fs.writeFileSync(file, bytes);
    const html = execFileSync('pdftotext', ['-q', '-bbox', file, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const words: BoxedWord[] = [];
    let page = 0;
    let height = 0;
    for (const line of html.split('\n')) {
      const pageMatch = /<page width="([\d.]+)" height="([\d.]+)">/.exec(line);
      if (pageMatch) {
        page += 1;
        height = Number(pageMatch[2]);
        continue;
      }
      const word = /<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">(.*)<\/word>/.exec(line);
      if (!word) continue;
      words.push({ page, text: decode(word[5] ?? ''), x1: Number(word[1]), y1: height - Number(word[4]), x2: Number(word[3]), y2: height - Number(word[2]) });
    }
    return words;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The first word on `page` whose text is `text`; throws when there is none. */
export function findWord(words: readonly BoxedWord[], text: string, page = 1): BoxedWord {
  const found = words.find((word) => word.page === page && word.text === text);
  if (!found) throw new Error(`no word ${JSON.stringify(text)} on page ${page}: ${words.filter((word) => word.page === page).map((word) => word.text).join(' ')}`);
  return found;
}

/**
 * Turns the organization's release safeguards off (approval, review state): these tests exercise burn-in and
 * verification, not the release workflow.
 */
export async function withoutSafeguards(instance: TestInstance): Promise<void> {
  const safeguards = Object.fromEntries(SAFEGUARDS.map((name) => [name, false]));
  const response = await instance.request({ method: 'PATCH', url: '/api/v1/release-settings', body: { safeguards } });
  if (response.statusCode !== 200) throw new Error(`release settings: ${response.statusCode} ${response.body}`);
}
