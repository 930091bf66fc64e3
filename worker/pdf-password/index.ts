import fsp from 'node:fs/promises';
import type { PdfPasswordOutcome, PdfPasswordTask } from '../../main/common/pdf-password-tasks.js';
import { decryptPdf } from '../burn-in/decrypt/index.js';

// The reasons decryptPdf gives when the key does not open the file (worker/burn-in/decrypt/index.ts).
const NEEDS_PASSWORD = 'it needs a password to open';
const WRONG_PASSWORD = 'the password given does not open it';

/** Whether the PDF opens with the password given ('' = none); with probe false, its decrypted bytes. */
export async function openPdf(task: PdfPasswordTask): Promise<PdfPasswordOutcome> {
  const bytes = new Uint8Array(await fsp.readFile(task.blobPath));
  // Only a file naming /Encrypt can be encrypted (the trailer's key is never inside a stream).
  if (!Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes('/Encrypt')) return { status: 'not_encrypted' };
  const result = await decryptPdf(bytes, task.password);
  if (result.ok) return result.bytes === bytes ? { status: 'not_encrypted' } : task.probe ? { status: 'opened' } : { status: 'opened', bytes: result.bytes };
  if (result.reason === NEEDS_PASSWORD) return { status: 'needs_password' };
  if (result.reason === WRONG_PASSWORD) return { status: 'wrong_password' };
  return { status: 'unsupported', reason: result.reason };
}
