import { z } from 'zod';

export const ProcessingSettings = z
  .strictObject({ auto_process: z.boolean().describe('New documents run scan → OCR → detection by themselves (default true)') })
  .meta({ id: 'ProcessingSettings' });
export type ProcessingSettings = z.infer<typeof ProcessingSettings>;

export const CaseProcessing = z
  .object({
    auto_process: z.boolean(),
    total: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
    in_progress: z.number().int(),
    waiting: z.number().int().describe('Waiting for a password or for intake to convert them'),
    eta_seconds: z.number().int().nullable().describe('0 when nothing runs; null until a step has finished in this case'),
    documents: z.array(
      z.object({
        document_id: z.string(),
        file_name: z.string(),
        state: z.enum(['not_started', 'waiting', 'needs_password', 'scan', 'ocr', 'detection', 'done', 'failed']),
        job: z.object({ id: z.string(), kind: z.string(), status: z.string(), progress: z.number() }).nullable().describe('The current (or last) automatic step\'s job'),
        error: z.string().nullable(),
      }),
    ),
    failures: z.array(z.object({ document_id: z.string(), file_name: z.string(), reason: z.string() })),
  })
  .meta({ id: 'CaseProcessing' });
export type CaseProcessing = z.infer<typeof CaseProcessing>;
