// Which files the server will take, decided before any byte is sent (the server decides again from the bytes).

// The list is the server's own intake list (main/common/accepted-files.ts), so the window takes what the API takes.
import { ACCEPT_ATTRIBUTE, isAcceptedFile } from '../../../main/common/accepted-files.js';

export { ACCEPT_ATTRIBUTE };

export const MAX_FILES_PER_UPLOAD = 100;

export function fileProblem(file: { name: string; size: number; type: string }): string | null {
  if (file.size === 0) return 'the file is empty';
  if (!isAcceptedFile(file)) return 'not a file Obscura takes: PDF, image, audio, video, e-mail, Office or text';
  if (/[\u0000-\u001f\u007f/\\]/.test(file.name)) return 'the name contains characters that are not allowed';
  return null;
}
