import { z } from 'zod';
import { Timestamp } from './shared.js';

/** Header fields of an e-mail document, as the message states them (addresses in full). */
export const EmailHeaders = z
  .object({
    from: z.string(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
    date: z.string().nullable().describe('As the message states it, with its zone; null when absent'),
    subject: z.string(),
    message_id: z.string().nullable(),
    in_reply_to: z.string().nullable(),
    references: z.array(z.string()),
  })
  .meta({ id: 'EmailHeaders' });
export type EmailHeaders = z.infer<typeof EmailHeaders>;

export const Document = z
  .object({
    id: z.string().describe('Numeric id, the same as the application API docId'),
    case_id: z.string(),
    fileName: z.string(),
    description: z.string(),
    document_type: z
      .enum(['pdf', 'png', 'jpeg', 'tiff', 'audio', 'video', 'email', 'office', 'text'])
      .describe('What the stored content is; e-mail, Office and text files become pdf once intake has converted them'),
    source_type: z.enum(['pdf', 'image', 'email', 'office', 'text', 'audio']).describe('What the document came in as'),
    parent_document_id: z.string().nullable().describe('The message (or container, or Office file) this document was attached to'),
    attachment_index: z.number().int().nullable().describe('Position among its parent\'s attachments, from 0'),
    thread_id: z.string().nullable().describe('Shared by every message of a thread'),
    email: EmailHeaders.nullable(),
    duplicate_of: z.string().nullable().describe('The first live document of the case with the same SHA-256, when this one repeats it'),
    password_state: z
      .enum(['needs_password', 'decrypted'])
      .nullable()
      .describe('needs_password: the PDF opens only with a password (POST …/password); decrypted: sha256 is the decrypted working copy'),
    original_sha256: z.string().nullable().describe('The encrypted file as uploaded, kept as the source of record once decrypted'),
    media_type: z.string(),
    size: z.number().int(),
    sha256: z.string(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Document' });
export type Document = z.infer<typeof Document>;

const FileName = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .refine((name) => !/[\u0000-\u001f\u007f/\\]/.test(name), 'must not contain control characters or path separators');

export const UpdateDocumentBody = z
  .strictObject({ fileName: FileName.optional(), description: z.string().max(20_000).optional() })
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one field to change' });
export type UpdateDocumentBody = z.infer<typeof UpdateDocumentBody>;

export const DownloadUrl = z.object({ url: z.url(), expires_at: Timestamp }).meta({ id: 'DownloadUrl' });
export type DownloadUrl = z.infer<typeof DownloadUrl>;

export const MAX_FILES_PER_SESSION = 100;

export const CreateUploadSessionBody = z.strictObject({
  files: z
    .array(z.strictObject({ name: FileName, size: z.number().int().min(1, 'empty files are refused') }))
    .max(MAX_FILES_PER_SESSION)
    .optional(),
});
export type CreateUploadSessionBody = z.infer<typeof CreateUploadSessionBody>;

/** The complete call takes no fields; an empty body or `{}` both work. */
export const CompleteUploadSessionBody = z.strictObject({}).nullish();

export const UploadFile = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number().int(),
  status: z.enum(['pending', 'uploaded']),
  upload_url: z.url().optional().describe('Only in the response that created the session'),
  media_type: z.string().nullable(),
  document_id: z.string().nullable(),
});

export const UploadSession = z
  .object({
    id: z.string(),
    case_id: z.string(),
    status: z.enum(['open', 'completed', 'expired']),
    expires_at: Timestamp,
    created_at: Timestamp,
    completed_at: Timestamp.nullable(),
    files: z.array(UploadFile),
    documents: z.array(Document),
  })
  .meta({ id: 'UploadSession' });
export type UploadSession = z.infer<typeof UploadSession>;
