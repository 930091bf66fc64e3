import { describe, expect, it } from 'vitest';
import { ACCEPTED_KINDS, ACCEPTED_TYPES_TEXT, isAcceptedFile } from '../../main/common/accepted-files.js';
import { fileProblem } from '../../renderer/src/domain/upload.js';

// The window's drop check and the server's intake read one list (main/common/accepted-files.ts).
describe('accepted files', () => {
  it('the window takes e-mail and Office files as the API does', () => {
    expect(fileProblem({ name: 'permit-complaint.eml', size: 10, type: '' })).toBeNull();
    expect(fileProblem({ name: 'inspection.docx', size: 10, type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' })).toBeNull();
    expect(fileProblem({ name: 'mailbox.pst', size: 10, type: '' })).toBeNull();
    expect(fileProblem({ name: 'scan.TIF', size: 10, type: '' })).toBeNull();
    expect(fileProblem({ name: 'tools.exe', size: 10, type: 'application/x-msdownload' })).toMatch(/not a file Obscura takes/);
    expect(fileProblem({ name: 'empty.pdf', size: 0, type: 'application/pdf' })).toBe('the file is empty');
  });

  it('every extension the refusal names is in the list', () => {
    const named = [...ACCEPTED_TYPES_TEXT.matchAll(/\.([a-z]+)/g)].map((match) => match[1] ?? '');
    const listed = new Set(ACCEPTED_KINDS.flatMap((kind) => kind.extensions));
    expect(named.filter((ext) => !listed.has(ext))).toEqual([]);
    expect(isAcceptedFile({ name: 'voice', type: 'audio/ogg' })).toBe(true);
  });
});
