// The case view's words for automatic processing: a document's step, the progress line with its ETA, and
// the share of steps done.
import { describe, expect, it } from 'vitest';
import type { CaseProcessing, ProcessingEntry } from '../../renderer/src/api/processing.js';
import { entryLabel, formatEta, isActive, progressFraction, progressLine } from '../../renderer/src/domain/processing.js';

function entry(state: ProcessingEntry['state'], job: ProcessingEntry['job'] = null, error: string | null = null): ProcessingEntry {
  return { document_id: String(Math.random()), file_name: 'a.pdf', state, job, error };
}

function progress(documents: ProcessingEntry[], extra: Partial<CaseProcessing> = {}): CaseProcessing {
  const count = (state: string) => documents.filter((doc) => doc.state === state).length;
  return {
    auto_process: true,
    total: documents.length,
    done: count('done'),
    failed: count('failed'),
    in_progress: count('scan') + count('ocr') + count('detection'),
    waiting: count('waiting') + count('needs_password'),
    eta_seconds: null,
    documents,
    failures: [],
    ...extra,
  };
}

describe('automatic processing in words', () => {
  it('names the running step with its progress, and a failure with its reason', () => {
    expect(entryLabel(entry('ocr', { id: '1', kind: 'ocr', status: 'running', progress: 0.42 }))).toBe('OCR running (42%)');
    expect(entryLabel(entry('scan', { id: '1', kind: 'scan', status: 'queued', progress: 0 }))).toBe('scan queued');
    expect(entryLabel(entry('failed', null, 'the scan could not open the PDF: bad xref'))).toBe('failed: the scan could not open the PDF: bad xref');
    expect(entryLabel(entry('needs_password'))).toBe('needs its password');
  });

  it('says how much is done, what runs, the time left and what failed; never counts documents outside automatic processing', () => {
    const running = progress([entry('done'), entry('ocr', { id: '2', kind: 'ocr', status: 'running', progress: 0.5 }), entry('failed'), entry('not_started')], { eta_seconds: 42 });
    expect(progressLine(running)).toBe('1 of 3 documents processed · 1 running · about 42 s left · 1 failed');
    expect(progressLine({ ...running, eta_seconds: null })).toContain('estimating time left');
    expect(formatEta(600)).toBe('about 10 min left');
    expect(isActive(running)).toBe(true);
    const settled = progress([entry('done'), entry('failed')]);
    expect(progressLine(settled)).toBe('1 of 2 documents processed · 1 failed');
    expect(isActive(settled)).toBe(false);
    expect(isActive(progress([entry('waiting')]))).toBe(true);
  });

  it('measures progress in steps: finished documents count whole, a running step by its progress', () => {
    // done (3) + OCR half way (1.5) over two documents of three steps each.
    expect(progressFraction(progress([entry('done'), entry('ocr', { id: '3', kind: 'ocr', status: 'running', progress: 0.5 })]))).toBeCloseTo(4.5 / 6);
    expect(progressFraction(progress([entry('needs_password')]))).toBe(0);
    expect(progressFraction(progress([entry('done'), entry('failed')]))).toBe(1);
  });
});
