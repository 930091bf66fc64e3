import { z } from 'zod';
import { Document } from './documents.js';

export const IntakeState = z
  .object({
    document_id: z.string(),
    status: z
      .enum(['not_needed', 'pending', 'converting', 'converted', 'needs_libreoffice', 'failed'])
      .describe('not_needed: a PDF, image or audio upload; the others: e-mail, Office and text files on their way to PDF'),
    error: z.string().nullable(),
    warnings: z.array(z.string()).describe('Limits applied and parts not taken'),
    original: z.object({ sha256: z.string(), media_type: z.string(), size: z.number().int(), format: z.string() }).nullable(),
    pages: z.number().int().nullable(),
    depth: z.number().int().describe('0 for an upload, 1 for its attachments, and so on'),
    duplicate_of: z.string().nullable(),
    near_duplicate_of: z.string().nullable(),
    near_duplicate_score: z.number().nullable().describe('Estimated Jaccard similarity (MinHash, 64 hashes, 5-word shingles), at least 0.8'),
    thread_id: z.string().nullable(),
    thread_inclusive: z.boolean().describe('No other message of the thread answers this one: review it to review the thread'),
    children: z.number().int(),
  })
  .meta({ id: 'IntakeState' });
export type IntakeState = z.infer<typeof IntakeState>;

export const FamilyMember = z.object({ depth: z.number().int(), document: Document, intake: IntakeState });
export const Family = z.object({ root_id: z.string(), members: z.array(FamilyMember).describe('Parent before children, attachments in order') }).meta({ id: 'Family' });
export type Family = z.infer<typeof Family>;

export const IntakeFilter = z.enum(['duplicates', 'thread', 'has_attachments']);
export const CaseIntakeQuery = z.strictObject({ filter: IntakeFilter.optional(), thread_id: z.string().max(40).optional() });
export const CaseIntakeList = z.array(FamilyMember);
export type CaseIntakeList = z.infer<typeof CaseIntakeList>;
