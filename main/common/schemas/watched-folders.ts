import { z } from 'zod';
import { ENTITY_KINDS } from './detection.js';
import { EXPORT_FORMATS } from './exports.js';
import { Timestamp } from './shared.js';

/** What is taken from a folder when a folder gives no patterns. */
export const DEFAULT_PATTERNS = ['*.pdf', '*.png', '*.jpg', '*.jpeg', '*.tif', '*.tiff'] as const;

const IdString = z.string().regex(/^[1-9][0-9]{0,15}$/, 'must be a positive integer id');

export const WatchedFolderTarget = z
  .discriminatedUnion('mode', [
    z.strictObject({ mode: z.literal('case'), case_id: IdString.describe('An existing case of the organization') }),
    z.strictObject({ mode: z.literal('case_per_file').describe('A new case per file, named after the file (without extension)') }),
    z.strictObject({
      mode: z.literal('case_per_subfolder').describe('One case per first-level sub-folder, named after it; files at the top go to a case named after the watched folder'),
    }),
  ])
  .meta({ id: 'WatchedFolderTarget' });
export type WatchedFolderTarget = z.infer<typeof WatchedFolderTarget>;

const JobStepOptions = z.record(z.string(), z.unknown()).describe("The job kind's options (see Jobs); validated when the folder is saved");

export const WatchedFolderPipeline = z
  .strictObject({
    scan: z
      .strictObject({
        enabled: z.boolean().default(true),
        fail_on_danger: z.boolean().default(false).describe('Also send files whose scan verdict is danger to failed/ (unreadable PDFs always go there)'),
        options: JobStepOptions.optional(),
      })
      .prefault({}),
    ocr: z.strictObject({ options: JobStepOptions.optional() }).nullable().default(null).describe('null: no OCR'),
    detection: z
      .strictObject({ template_id: z.string().min(1).max(100).nullable().optional().describe('A detection template (see Templates)'), options: JobStepOptions.optional() })
      .nullable()
      .default(null)
      .describe('null: no detection'),
    auto_accept: z
      .strictObject({ kinds: z.array(z.enum(ENTITY_KINDS)).min(1).max(ENTITY_KINDS.length).describe('Entity kinds whose pending suggestions are accepted') })
      .nullable()
      .default(null)
      .describe('Needs detection; null: suggestions stay pending for review'),
    export: z
      .strictObject({
        format: z.enum(EXPORT_FORMATS),
        output_path: z.string().min(1).max(4096).describe('Absolute folder the release file is written to'),
        filters: z.record(z.string(), z.unknown()).optional().describe('Export filters (see Exports) except document_ids, which is the file\'s document'),
        options: z.record(z.string(), z.unknown()).optional().describe('Export burn-in options (see Exports)'),
      })
      .nullable()
      .default(null)
      .describe('null: no release file'),
  })
  .meta({ id: 'WatchedFolderPipeline' });
export type WatchedFolderPipeline = z.output<typeof WatchedFolderPipeline>;

export const DISPOSITIONS = ['move', 'leave', 'delete'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

export const WatchedFolderWatch = z
  .strictObject({
    stability_ms: z.number().int().min(50).max(600_000).optional().describe('Size and mtime must stay unchanged this long before a file is taken'),
    rescan_interval_seconds: z.number().min(0.2).max(86_400).optional().describe('Full walk of the folder for events that were missed'),
    use_polling: z.boolean().optional().describe('Poll with stat instead of OS events (SMB/NFS shares)'),
    polling_interval_ms: z.number().int().min(100).max(600_000).optional(),
  })
  .meta({ id: 'WatchedFolderWatch' });
export type WatchedFolderWatch = z.infer<typeof WatchedFolderWatch>;

const Name = z.string().trim().min(1).max(200);
const FolderPath = z.string().min(1).max(4096).describe('Absolute path of the folder on this machine');
const Patterns = z
  .array(z.string().trim().min(1).max(200))
  .min(1)
  .max(50)
  .describe('Glob-ish, case-insensitive: * ? ** [abc]; a pattern without / matches the file name anywhere in the tree');

/** The settings a folder is saved with (API body and config file entry alike). */
export const WatchedFolderFields = {
  name: Name,
  path: FolderPath,
  enabled: z.boolean().default(true),
  target: WatchedFolderTarget,
  pipeline: WatchedFolderPipeline.prefault({}),
  patterns: Patterns.default([...DEFAULT_PATTERNS]),
  disposition: z.enum(DISPOSITIONS).default('move').describe('What happens to the source once processed: move to processed/YYYY-MM-DD/, leave, delete'),
  watch: WatchedFolderWatch.default({}),
};

export const CreateWatchedFolderBody = z.strictObject(WatchedFolderFields).meta({ id: 'CreateWatchedFolderBody' });
export type CreateWatchedFolderBody = z.output<typeof CreateWatchedFolderBody>;

export const UpdateWatchedFolderBody = z
  .strictObject({
    name: Name.optional(),
    enabled: z.boolean().optional(),
    target: WatchedFolderTarget.optional(),
    pipeline: WatchedFolderPipeline.optional(),
    patterns: Patterns.optional(),
    disposition: z.enum(DISPOSITIONS).optional(),
    watch: WatchedFolderWatch.optional(),
  })
  .meta({ id: 'UpdateWatchedFolderBody' });
export type UpdateWatchedFolderBody = z.output<typeof UpdateWatchedFolderBody>;

/** A `watchedFolders` entry of config.json: the API body plus the organization (default: the first one). */
export const ConfigWatchedFolder = z.strictObject({ ...WatchedFolderFields, organization_id: IdString.optional() });
export type ConfigWatchedFolder = z.output<typeof ConfigWatchedFolder>;

/** What a folder row stores as JSON besides its name and path. */
export const WatchedFolderSettings = z.strictObject({
  target: WatchedFolderTarget,
  pipeline: WatchedFolderPipeline,
  patterns: z.array(z.string()),
  disposition: z.enum(DISPOSITIONS),
  watch: WatchedFolderWatch,
});
export type WatchedFolderSettings = z.output<typeof WatchedFolderSettings>;

export const WatchedFolder = z
  .object({
    id: z.string(),
    name: z.string(),
    path: z.string(),
    origin: z.enum(['api', 'config']).describe('config: defined in config.json, read-only through the API'),
    enabled: z.boolean(),
    target: WatchedFolderTarget,
    pipeline: WatchedFolderPipeline,
    patterns: z.array(z.string()),
    disposition: z.enum(DISPOSITIONS),
    watch: z.object({ stability_ms: z.number(), rescan_interval_seconds: z.number(), use_polling: z.boolean(), polling_interval_ms: z.number() }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'WatchedFolder' });
export type WatchedFolder = z.infer<typeof WatchedFolder>;

/**
 * waiting → storing → processing → disposing → done; any non-final state → failing → failed;
 * waiting/storing → vanished (the file went away before it was read).
 */
export const WATCHED_FILE_STATES = ['waiting', 'storing', 'processing', 'disposing', 'done', 'failing', 'failed', 'vanished'] as const;
export type WatchedFileState = (typeof WATCHED_FILE_STATES)[number];
export const FINAL_FILE_STATES: readonly WatchedFileState[] = ['done', 'failed', 'vanished'];

export const PIPELINE_STEPS = ['scan', 'ocr', 'detection', 'auto_accept', 'export', 'output'] as const;
export type PipelineStepName = (typeof PIPELINE_STEPS)[number];

export const WatchedFileStep = z.object({
  name: z.enum(PIPELINE_STEPS),
  status: z.enum(['pending', 'running', 'done', 'failed']),
  job_id: z.string().nullable().describe('The job (scan, ocr, detection) or export the step waits for'),
  detail: z.record(z.string(), z.unknown()).nullable().describe('e.g. {accepted: 3} for auto_accept'),
});
export type WatchedFileStep = z.infer<typeof WatchedFileStep>;

export const WatchedFile = z
  .object({
    id: z.string(),
    folder_id: z.string(),
    relative_path: z.string(),
    state: z.enum(WATCHED_FILE_STATES),
    size: z.number().int(),
    sha256: z.string().nullable(),
    case_id: z.string().nullable(),
    document_id: z.string().nullable(),
    duplicate_of: z.string().nullable().describe('An earlier file of this folder with the same content; no new document was made'),
    steps: z.array(WatchedFileStep),
    output_path: z.string().nullable(),
    output_written: z.boolean(),
    disposition: z.enum(DISPOSITIONS),
    disposed_path: z.string().nullable().describe('Where the source went (processed/… or failed/…); null when left or deleted'),
    error_step: z.string().nullable(),
    error_message: z.string().nullable(),
    seen_at: Timestamp,
    stored_at: Timestamp.nullable(),
    finished_at: Timestamp.nullable(),
    updated_at: Timestamp,
  })
  .meta({ id: 'WatchedFile' });
export type WatchedFile = z.infer<typeof WatchedFile>;

export const WATCHED_FILE_GROUPS = ['waiting', 'in_progress', 'done', 'failed', 'vanished'] as const;
export type WatchedFileGroup = (typeof WATCHED_FILE_GROUPS)[number];

export const WatchedFolderStatus = z
  .object({
    folder_id: z.string(),
    watching: z.enum(['watching', 'starting', 'unavailable', 'stopped']).describe('stopped: disabled or not started; unavailable: the path cannot be watched now'),
    watch_error: z.string().nullable(),
    last_scan_at: Timestamp.nullable().describe('Last full walk of the folder'),
    counts: z.object({
      waiting: z.number().int(),
      in_progress: z.number().int(),
      done: z.number().int(),
      failed: z.number().int(),
      vanished: z.number().int(),
      duplicates: z.number().int().describe('Done files whose content matched an earlier file'),
      stored: z.number().int().describe('Files that have their document (made or matched)'),
    }),
    last_errors: z.array(z.object({ file_id: z.string(), relative_path: z.string(), error_step: z.string().nullable(), error_message: z.string(), at: Timestamp })),
  })
  .meta({ id: 'WatchedFolderStatus' });
export type WatchedFolderStatus = z.infer<typeof WatchedFolderStatus>;

/** `watchedFolderOptions` of config.json: defaults of every folder and limits of the runners. */
export const WatchedFolderOptions = z.strictObject({
  stabilityMs: z.number().int().min(50).max(600_000).default(2000).describe('Default watch.stability_ms'),
  rescanIntervalSeconds: z.number().min(0.2).max(86_400).default(60).describe('Default watch.rescan_interval_seconds'),
  pollingIntervalMs: z.number().int().min(100).max(600_000).default(2000).describe('Default watch.polling_interval_ms'),
  /** Files read into the blob store at once, per folder. */
  storeConcurrency: z.number().int().min(1).max(64).default(4),
  /** Files whose pipeline runs at once, per folder (they mostly wait for jobs; the job pool bounds CPU). */
  pipelineConcurrency: z.number().int().min(1).max(10_000).default(64),
  /**
   * Folders created through the API (and their output folders) must lie under one of these, symlinks
   * resolved; empty (the default, and null) means the API creates none. Config-file folders are not bound.
   */
  allowedRoots: z.array(z.string().min(1)).nullable().default([]),
});
export type WatchedFolderOptions = z.output<typeof WatchedFolderOptions>;
