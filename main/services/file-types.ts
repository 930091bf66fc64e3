import { fileTypeFromFile } from 'file-type';

export const DOCUMENT_TYPES = ['pdf', 'png', 'jpeg', 'tiff', 'audio', 'video'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export interface DetectedType {
  mediaType: string;
  documentType: DocumentType;
}

/** Decides what a file is from its bytes alone; the name a client gave is never trusted. Null: not accepted. */
export async function detectDocumentType(file: string): Promise<DetectedType | null> {
  const detected = await fileTypeFromFile(file);
  if (!detected) return null;
  const { mime } = detected;
  if (mime === 'application/pdf') return { mediaType: mime, documentType: 'pdf' };
  if (mime === 'image/png') return { mediaType: mime, documentType: 'png' };
  if (mime === 'image/jpeg') return { mediaType: mime, documentType: 'jpeg' };
  if (mime === 'image/tiff') return { mediaType: mime, documentType: 'tiff' };
  if (mime.startsWith('audio/')) return { mediaType: mime, documentType: 'audio' };
  if (mime.startsWith('video/')) return { mediaType: mime, documentType: 'video' };
  return null;
}
