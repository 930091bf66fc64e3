import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OCR_MODELS, type OcrModel } from '../common/schemas/ocr.js';

// Where the OCR engine's files are on disk. Resolved through Node's module resolution, so the same code
// finds them from sources (vitest), from dist/, and from a packaged app, where electron-builder keeps
// files read from real paths in app.asar.unpacked (see asarUnpack in electron-builder.yml).

const require = createRequire(import.meta.url);

/**
 * The models: `fast` is tessdata_fast, shipped in resources/tessdata (not on npm; see its README), the
 * network native tesseract uses; `best` is @tesseract.js-data/eng's LSTM-only integer model (5 MB unpacked
 * instead of 23 MB with the legacy engine), a larger network about 1.5 times slower.
 */
export const MODEL_VARIANTS: Record<OcrModel, string> = { fast: 'tessdata_fast 4.1.0', best: '4.0.0_best_int' };
export const OCR_LANGUAGES = ['eng'] as const;
export type OcrLanguage = (typeof OCR_LANGUAGES)[number];

/** A path inside app.asar cannot be read by a worker thread's plain fs; its unpacked copy can. */
function unpacked(file: string): string {
  const marker = `app.asar${path.sep}`;
  if (!file.includes(marker)) return file;
  const candidate = file.replace(marker, `app.asar.unpacked${path.sep}`);
  return fs.existsSync(candidate) ? candidate : file;
}

function packageDir(name: string): string {
  return unpacked(path.dirname(require.resolve(`${name}/package.json`)));
}

function packageVersion(name: string): string | null {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(path.join(packageDir(name), 'package.json'), 'utf8'));
    return typeof parsed === 'object' && parsed !== null && 'version' in parsed && typeof parsed.version === 'string' ? parsed.version : null;
  } catch {
    return null;
  }
}

/** The app's resources/ folder: found upwards from this module, in sources, in dist/ and in a packaged app. */
function resourcesDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'resources', 'tessdata');
    if (fs.existsSync(candidate)) return unpacked(path.dirname(candidate));
    const parent = path.dirname(dir);
    if (parent === dir) return path.join(path.dirname(fileURLToPath(import.meta.url)), 'resources');
    dir = parent;
  }
}

/** Directory holding `<lang>.traineddata.gz`, as tesseract.js's `langPath` wants it. */
export function languageDataDir(language: OcrLanguage, model: OcrModel): string {
  if (model === 'fast') return path.join(resourcesDir(), 'tessdata', 'fast');
  return path.join(packageDir(`@tesseract.js-data/${language}`), '4.0.0_best_int');
}

export function languageDataFile(language: OcrLanguage, model: OcrModel): string {
  return path.join(languageDataDir(language, model), `${language}.traineddata.gz`);
}

/** The script tesseract.js starts its engine thread from (given explicitly so it can be the unpacked copy). */
export function tesseractWorkerScript(): string {
  return path.join(packageDir('tesseract.js'), 'src', 'worker-script', 'node', 'index.js');
}

/** pdf.js reads these by path in Node; each must end with a separator. */
export function pdfjsAssetDirs(): { standardFontDataUrl: string; cMapUrl: string; wasmUrl: string } {
  const root = packageDir('pdfjs-dist');
  const dir = (name: string) => path.join(root, name) + path.sep;
  return { standardFontDataUrl: dir('standard_fonts'), cMapUrl: dir('cmaps'), wasmUrl: dir('wasm') };
}

export interface OcrEngineStatus {
  ready: boolean;
  engine: { name: 'tesseract.js'; version: string | null; core_version: string | null };
  renderer: { name: 'pdf.js'; version: string | null };
  languages: { code: OcrLanguage; model: OcrModel; variant: string; present: boolean; size: number | null }[];
  problems: string[];
}

/** What the OCR engine needs on disk, without starting it: for the health endpoint. */
export function ocrEngineStatus(): OcrEngineStatus {
  const problems: string[] = [];
  const versionOf = (name: string) => {
    const version = packageVersion(name);
    if (version === null) problems.push(`package ${name} is not installed`);
    return version;
  };
  const engine = { name: 'tesseract.js' as const, version: versionOf('tesseract.js'), core_version: versionOf('tesseract.js-core') };
  const renderer = { name: 'pdf.js' as const, version: versionOf('pdfjs-dist') };
  if (engine.version !== null && !fs.existsSync(tesseractWorkerScript())) problems.push('the tesseract.js worker script is missing');
  const languages = OCR_LANGUAGES.flatMap((code) =>
    OCR_MODELS.map((model) => {
      let size: number | null = null;
      try {
        size = fs.statSync(languageDataFile(code, model)).size;
      } catch {
        problems.push(`language data for ${code} (${MODEL_VARIANTS[model]}) is missing`);
      }
      return { code, model, variant: MODEL_VARIANTS[model], present: size !== null && size > 0, size };
    }),
  );
  return { ready: problems.length === 0, engine, renderer, languages, problems };
}

/** Names the engine and language data in job results, e.g. `tesseract.js 7.0.0, eng tessdata_fast 4.1.0`. */
export function ocrEngineLabel(language: OcrLanguage, model: OcrModel): string {
  return `tesseract.js ${packageVersion('tesseract.js') ?? 'unknown'}, ${language} ${MODEL_VARIANTS[model]}`;
}
