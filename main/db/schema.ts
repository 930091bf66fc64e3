import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

// Row types of every table. 0/1 columns are SQLite booleans; *_at columns are ISO 8601 UTC text.

export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  created_at: string;
  /** Migration 16: scan → OCR → detection start by themselves on new documents (1, the default). */
  auto_process: Generated<number>;
}

/** Migration 16: where a document's automatic scan → OCR → detection chain stands. */
export interface AutoProcessingTable {
  document_id: number;
  organization_id: number;
  case_id: number;
  step: 'waiting' | 'scan' | 'ocr' | 'detection' | 'done' | 'failed';
  job_id: number | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  id: Generated<number>;
  organization_id: number;
  username: string;
  display_name: string;
  email: string | null;
  password_hash: string | null;
  is_admin: number;
  active: number;
  created_at: string;
  updated_at: string;
  deactivated_at: Generated<string | null>;
}

export interface ServiceAccountsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  description: string;
  /** JSON array of scope names. */
  max_scopes: string;
  active: number;
  created_at: string;
  updated_at: string;
  deleted_at: Generated<string | null>;
}

export interface ApiKeysTable {
  id: Generated<number>;
  organization_id: number;
  service_account_id: number;
  name: string;
  lookup_id: string;
  secret_hash: string;
  /** JSON array of scope names. */
  scopes: string;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  last_used_at: string | null;
  /** Rotation: the replaced secret's hash, accepted until previous_secret_expires_at. */
  previous_secret_hash: Generated<string | null>;
  previous_secret_expires_at: Generated<string | null>;
  rotated_at: Generated<string | null>;
}

export interface CasesTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  description: string;
  status: string;
  priority: string;
  due_date: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Request clock (migration 22): YYYY-MM-DD the request was received; null: no statutory clock. */
  received_date: Generated<string | null>;
  /** Business days allowed; null: the organization's setting. */
  time_limit_days: Generated<number | null>;
  /** JSON RequesterContact; internal, never in a release. */
  requester: Generated<string | null>;
  /** YYYY-MM-DD the clock was paused on, while it is. */
  tolled_since: Generated<string | null>;
  last_release_number: Generated<number | null>;
  last_released_at: Generated<string | null>;
}

export interface CaseClockEventsTable {
  id: Generated<number>;
  organization_id: number;
  case_id: number;
  kind: 'toll' | 'resume' | 'extend';
  on_date: string;
  days: number | null;
  reason: string;
  created_by: string;
  created_at: string;
}

export interface RequestClockSettingsTable {
  organization_id: number;
  time_limit_days: number;
  /** JSON array of YYYY-MM-DD. */
  holidays: string;
  updated_at: string;
}

export interface BlobsTable {
  sha256: string;
  size: number;
  created_at: string;
}

export interface DocumentsTable {
  id: Generated<number>;
  organization_id: number;
  case_id: number;
  file_name: string;
  description: string;
  sha256: string;
  size: number;
  media_type: string;
  document_type: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  owner_user_id: number | null;
  source_type: Generated<'pdf' | 'image' | 'email' | 'office' | 'text' | 'audio'>;
  parent_document_id: number | null;
  attachment_index: number | null;
  duplicate_of: number | null;
  thread_id: string | null;
  /** JSON of the message's header fields, for e-mail documents. */
  email: string | null;
  /** Migration 16: a PDF that needs a password, or was decrypted into a working copy (sha256). */
  password_state: Generated<'needs_password' | 'decrypted' | null>;
  /** Migration 16: the encrypted upload, kept as the source of record once decrypted. */
  original_sha256: Generated<string | null>;
}

export interface DocumentIntakeTable {
  document_id: number;
  organization_id: number;
  case_id: number;
  status: 'pending' | 'converting' | 'converted' | 'needs_libreoffice' | 'failed';
  error: string | null;
  /** JSON array of strings: limits applied, parts skipped. */
  warnings: Generated<string>;
  original_sha256: string;
  original_media_type: string;
  original_size: number;
  original_format: string;
  depth: Generated<number>;
  attempts: Generated<number>;
  pages: number | null;
  message_id: string | null;
  body_hash: string | null;
  subject_key: string | null;
  /** JSON array of MinHash minima (unsigned 32-bit). */
  minhash: string | null;
  near_duplicate_of: number | null;
  near_duplicate_score: number | null;
  thread_inclusive: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** Migration 19: MinHash band keys of converted, non-duplicate documents (near-duplicate candidates). */
export interface IntakeMinhashBandsTable {
  case_id: number;
  band_key: number;
  document_id: number;
}

/** Migration 19: the Message-IDs each message names in In-Reply-To and References (threading lookups). */
export interface IntakeMessageRefsTable {
  case_id: number;
  ref: string;
  document_id: number;
}

export interface UploadSessionsTable {
  id: Generated<number>;
  organization_id: number;
  case_id: number;
  status: string;
  created_at: string;
  expires_at: string;
  completed_at: string | null;
}

export interface UploadFilesTable {
  id: Generated<number>;
  upload_session_id: number;
  position: number;
  name: string;
  size: number;
  token_hash: string;
  sha256: string | null;
  media_type: string | null;
  document_type: string | null;
  last_attempt_bytes: number;
  uploaded_at: string | null;
  document_id: number | null;
}

export interface DownloadTokensTable {
  token_hash: string;
  organization_id: number;
  resource_type: string;
  resource_id: number;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface IdempotencyKeysTable {
  /** Who sent the key: idempotency keys are scoped per API key or per signed-in user. */
  principal_type: 'api_key' | 'user';
  principal_id: number;
  idempotency_key: string;
  fingerprint: string;
  state: 'running' | 'done';
  /** Process holding a running claim (main/cluster/identity.ts), so another process can tell a dead claim. */
  claimed_by: Generated<string | null>;
  status_code: number | null;
  response_body: string | null;
  created_at: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  organization_id: number;
  actor_type: string;
  actor_id: string;
  action: string;
  resource_type: string;
  resource_id: string;
  request_id: string | null;
  details: string | null;
  created_at: string;
}

export interface OutboxEventsTable {
  id: Generated<number>;
  event_id: string;
  organization_id: number;
  type: string;
  resource_type: string;
  resource_id: string;
  payload: string;
  created_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface SessionsTable {
  id: string;
  organization_id: number;
  user_id: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface RedactionsTable {
  id: Generated<number>;
  organization_id: number;
  document_id: number;
  /** Client-chosen id (a UUID from the UI), unique per document. */
  redaction_id: string;
  source: 'pdf' | 'image';
  layer: string;
  kind: string;
  page_number: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** JSON array of {x, y}. */
  points: string;
  reason: string | null;
  classification_type: string | null;
  state: 'pending' | 'accepted' | 'rejected';
  /** JSON object, e.g. {entity, score}, for staged suggestions. */
  pending_reason: string | null;
  /** The layer version this box was last written in. */
  version_id: string;
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
}

export interface LayerVersionsTable {
  id: Generated<number>;
  organization_id: number;
  document_id: number;
  layer: string;
  version: number;
  version_id: string;
  created_at: string;
  created_by: string;
  origin: string;
  /** JSON {created, updated, deleted} redaction ids. */
  summary: string;
  /** JSON array of every box of the layer at this version. */
  snapshot: string;
}

export interface LayerLocksTable {
  document_id: number;
  layer: string;
  organization_id: number;
  user_id: number;
  acquired_at: string;
  expires_at: string;
}

export interface ReviewDecisionsTable {
  id: Generated<number>;
  organization_id: number;
  document_id: number;
  redaction_row_id: number;
  decision: 'accept' | 'reject';
  reason: string | null;
  actor_type: string;
  actor_id: string;
  created_at: string;
}

export interface CommentsTable {
  id: Generated<number>;
  organization_id: number;
  document_id: number;
  text: string;
  author_type: string;
  author_id: string;
  created_at: string;
}

export interface JobsTable {
  id: Generated<number>;
  organization_id: number;
  document_id: number;
  kind: 'scan' | 'ocr' | 'detection' | 'transcription' | 'summary';
  status: 'queued' | 'running' | 'completed' | 'failed';
  /** JSON object: the kind's validated options with their defaults. */
  options: string;
  /** 0..1 */
  progress: number;
  /** How many times the job was handed to a worker. */
  attempts: number;
  /** JSON object, the kind's result, once completed. */
  result: string | null;
  error_message: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
  /** Process running the job (main/cluster/identity.ts) and until when its lease holds; null while not running. */
  lease_owner: Generated<string | null>;
  lease_expires_at: Generated<string | null>;
}

export interface DocumentPagesTable {
  organization_id: number;
  document_id: number;
  page_number: number;
  source: 'text_layer' | 'ocr' | 'transcript';
  job_id: number | null;
  /** Unit of width, height and the word boxes: PDF user space points, image pixels, or seconds (transcripts). */
  unit: 'pdf_points' | 'image_pixels' | 'seconds';
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
  text: string;
  /** JSON array of PageWord (main/common/schemas/pages.ts). */
  words: string;
  mean_confidence: number | null;
  created_at: string;
}

export interface RolesTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  description: string;
  /** JSON array of scope names. */
  scopes: string;
  /** Which built-in role this is; null for the organization's own roles. */
  built_in: 'admin' | 'redactor' | 'reviewer' | 'viewer' | null;
  created_at: string;
  updated_at: string;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
  organization_id: number;
  assigned_at: string;
}

export interface UserInvitationsTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  superseded_at: string | null;
}

export interface ExemptionsTable {
  id: Generated<number>;
  organization_id: number;
  /** e.g. (b)(7)(C); unique per organization. */
  code: string;
  name: string;
  description: string;
  layer: string | null;
  jurisdiction: string;
  built_in: number;
  created_at: string;
  updated_at: string;
}

export interface RedactionTemplatesTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  description: string;
  /** JSON arrays: entity kind names, literal terms, {name, regex, flags} patterns. */
  entity_kinds: string;
  custom_terms: string;
  patterns: string;
  layer: string;
  exemption_id: number | null;
  /** Minimum confidence of the template's suggestions; null: the job default. */
  min_score: number | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookEndpointsTable {
  id: Generated<number>;
  organization_id: number;
  url: string;
  description: string;
  /** JSON array of event type patterns (exact names, `group.*`, `*`). */
  event_types: string;
  enabled: number;
  /** whsec_… (needed in clear to sign). */
  secret: string;
  /** The secret before the last rotation; also signs until previous_secret_expires_at. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  secret_rotated_at: string | null;
  /** Outbox events with an id up to this one predate the endpoint and are not delivered to it. */
  start_after_event_id: number;
  /** First failed attempt since the last success; null while healthy. */
  failing_since: string | null;
  disabled_reason: 'manual' | 'gone' | 'failing' | null;
  disabled_at: string | null;
  /** 1: an administrator opted in to keeping response bodies (public destinations only). */
  store_response_body: Generated<number>;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  organization_id: number;
  endpoint_id: number;
  outbox_event_id: number;
  replay_of: number | null;
  status: 'pending' | 'delivering' | 'succeeded' | 'failed';
  attempt_count: number;
  /** Failed (not interrupted) attempts: the index into the retry schedule. */
  failure_count: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  failure_reason: 'attempts_exhausted' | 'endpoint_gone' | 'endpoint_disabled' | 'endpoint_deleted' | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface WebhookDeliveryAttemptsTable {
  id: Generated<number>;
  organization_id: number;
  delivery_id: number;
  number: number;
  url: string;
  outcome: 'in_flight' | 'succeeded' | 'failed' | 'interrupted';
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  status_code: number | null;
  response_excerpt: string | null;
  error: string | null;
}

export interface WebhookOutboxCursorTable {
  id: number;
  last_event_id: number;
}

export interface ExportsTable {
  id: Generated<number>;
  organization_id: number;
  case_id: number;
  format: 'pdf' | 'csv' | 'json' | 'zip';
  /** JSON object: the validated filters with their defaults (main/common/schemas/exports.ts). */
  filters: string;
  /** JSON object: the validated burn-in options with their defaults. */
  options: string;
  status: 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled';
  /** 0..1 */
  progress: number;
  /** How many times the runner took the export (reset by retry). */
  attempts: number;
  error_message: string | null;
  result_sha256: string | null;
  result_size: number | null;
  result_media_type: string | null;
  result_file_name: string | null;
  /** JSON object: what the finished export holds (counts, verification). */
  summary: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Process building the export and until when its lease holds (migration 17). */
  lease_owner: Generated<string | null>;
  lease_expires_at: Generated<string | null>;
  /** release: for the requester; internal: the case record (csv, json, zip with options.audience internal). */
  audience: Generated<'release' | 'internal'>;
  /** Set when a release completes: 1, 2, … per case. */
  release_number: Generated<number | null>;
  /** JSON: how the release safeguards were met (passed, overridden with a reason); internal only. */
  safeguards: Generated<string | null>;
}

export interface ReleaseSettingsTable {
  organization_id: number;
  /** JSON: main/common/schemas/releases.ts ReleaseSettings. */
  settings: string;
  updated_at: string;
}

export interface CaseReleaseDetailsTable {
  case_id: number;
  organization_id: number;
  request_number: string | null;
  /** The title a requester sees, never the internal case name. */
  requester_title: string | null;
  updated_at: string;
}

export interface WithholdingsTable {
  id: Generated<number>;
  organization_id: number;
  case_id: number;
  document_id: number;
  /** Both null: the whole document. */
  page_from: number | null;
  page_to: number | null;
  exemption: string;
  category: string | null;
  created_by: string;
  created_at: string;
}

export interface ReleasePagesTable {
  export_id: number;
  case_id: number;
  /** 1-based output page within the release's documents, in release order. */
  position: number;
  document_id: number;
  page_from: number;
  page_to: number;
  bates_number: number | null;
  bates: string | null;
  /** What the page showed: source file, boxes and withholding; compared by supplemental releases. */
  fingerprint: string;
}

export interface WatchedFoldersTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  /** Absolute; unique among live folders. */
  path: string;
  origin: 'api' | 'config';
  enabled: number;
  /** JSON WatchedFolderSettings (main/common/schemas/watched-folders.ts). */
  settings: string;
  /** Live state written by the folder's runner (not a change of the folder: no updated_at, no event). */
  watch_state: 'watching' | 'starting' | 'unavailable' | 'stopped';
  watch_error: string | null;
  last_scan_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** `type:id` of whoever saved it through the API; its scopes must cover the steps (null: config.json's). */
  saved_by: Generated<string | null>;
}

export interface WatchedFilesTable {
  id: Generated<number>;
  organization_id: number;
  folder_id: number;
  /** Relative to the folder, with / separators. */
  relative_path: string;
  state: 'waiting' | 'storing' | 'processing' | 'disposing' | 'done' | 'failing' | 'failed' | 'vanished';
  /** Size and mtime when seen, then when taken. */
  size: number;
  mtime_ms: number;
  sha256: string | null;
  case_id: number | null;
  document_id: number | null;
  duplicate_of: number | null;
  /** JSON WatchedFolderPipeline frozen when the file was stored. */
  pipeline: string | null;
  /** JSON array of WatchedFileStep. */
  steps: string;
  output_path: string | null;
  output_written_at: string | null;
  disposition: 'move' | 'leave' | 'delete';
  disposed_path: string | null;
  /** 1 when the source stays where it was after the file's final state (leave, or failed/ was not writable). */
  source_kept: number;
  error_step: string | null;
  error_message: string | null;
  seen_at: string;
  stored_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

export interface WatchedFolderCasesTable {
  folder_id: number;
  subfolder: string;
  case_id: number;
}

/** The search index's copy of a page (migration 12); `folded` has the length of `text`. */
export interface SearchPagesTable {
  id: Generated<number>;
  organization_id: number;
  case_id: number;
  document_id: number;
  page_number: number;
  unit: 'pdf_points' | 'image_pixels';
  text: string;
  folded: string;
}

/** Pages stored, replaced or removed since the search index last caught up (filled by triggers). */
export interface SearchStaleTable {
  document_id: number;
  page_number: number;
}

export interface Database {
  roles: RolesTable;
  user_roles: UserRolesTable;
  user_invitations: UserInvitationsTable;
  exemptions: ExemptionsTable;
  redaction_templates: RedactionTemplatesTable;
  document_pages: DocumentPagesTable;
  exports: ExportsTable;
  jobs: JobsTable;
  settings: SettingsTable;
  sessions: SessionsTable;
  redactions: RedactionsTable;
  layer_versions: LayerVersionsTable;
  layer_locks: LayerLocksTable;
  review_decisions: ReviewDecisionsTable;
  comments: CommentsTable;
  organizations: OrganizationsTable;
  auto_processing: AutoProcessingTable;
  users: UsersTable;
  service_accounts: ServiceAccountsTable;
  api_keys: ApiKeysTable;
  cases: CasesTable;
  blobs: BlobsTable;
  documents: DocumentsTable;
  document_intake: DocumentIntakeTable;
  intake_minhash_bands: IntakeMinhashBandsTable;
  intake_message_refs: IntakeMessageRefsTable;
  upload_sessions: UploadSessionsTable;
  upload_files: UploadFilesTable;
  download_tokens: DownloadTokensTable;
  idempotency_keys: IdempotencyKeysTable;
  audit_log: AuditLogTable;
  outbox_events: OutboxEventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  webhook_outbox_cursor: WebhookOutboxCursorTable;
  watched_folders: WatchedFoldersTable;
  watched_files: WatchedFilesTable;
  watched_folder_cases: WatchedFolderCasesTable;
  release_settings: ReleaseSettingsTable;
  case_release_details: CaseReleaseDetailsTable;
  case_clock_events: CaseClockEventsTable;
  request_clock_settings: RequestClockSettingsTable;
  withholdings: WithholdingsTable;
  release_pages: ReleasePagesTable;
  search_pages: SearchPagesTable;
  search_stale: SearchStaleTable;
  runner_locks: RunnerLocksTable;
  shared_epochs: SharedEpochsTable;
  throttle_entries: ThrottleEntriesTable;
  rate_windows: RateWindowsTable;
}

/** One owner at a time for a singleton runner on SQLite (main/db/locks.ts). */
export interface RunnerLocksTable {
  name: string;
  owner: string;
  expires_at: string;
}

/** Counters every process reads to know that rows it caches changed in another process. */
export interface SharedEpochsTable {
  name: string;
  epoch: number;
}

/** Failed sign-in counts shared by every process (main/services/login-throttle.ts); times in epoch ms. */
/** A fixed request-rate window of one tier and key (migration 20), counted by every process. */
export interface RateWindowsTable {
  bucket: string;
  window_start: number;
  hits: number;
}

export interface ThrottleEntriesTable {
  scope: string;
  name: string;
  failures: number;
  blocked_until: number;
  last_failure: number;
  locked: number;
}

export type OrganizationRow = Selectable<OrganizationsTable>;
export type UserRow = Selectable<UsersTable>;
export type ServiceAccountRow = Selectable<ServiceAccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type CaseRow = Selectable<CasesTable>;
export type NewCase = Insertable<CasesTable>;
export type CaseUpdate = Updateable<CasesTable>;
export type DocumentRow = Selectable<DocumentsTable>;
export type DocumentUpdate = Updateable<DocumentsTable>;
export type UploadSessionRow = Selectable<UploadSessionsTable>;
export type UploadFileRow = Selectable<UploadFilesTable>;
export type DownloadTokenRow = Selectable<DownloadTokensTable>;
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;
export type SessionRow = Selectable<SessionsTable>;
export type RedactionRow = Selectable<RedactionsTable>;
export type NewRedaction = Insertable<RedactionsTable>;
export type LayerVersionRow = Selectable<LayerVersionsTable>;
export type LayerLockRow = Selectable<LayerLocksTable>;
export type ReviewDecisionRow = Selectable<ReviewDecisionsTable>;
export type CommentRow = Selectable<CommentsTable>;
export type JobRow = Selectable<JobsTable>;
export type DocumentPageRow = Selectable<DocumentPagesTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type ExportRow = Selectable<ExportsTable>;
export type CaseReleaseDetailsRow = Selectable<CaseReleaseDetailsTable>;
export type CaseClockEventRow = Selectable<CaseClockEventsTable>;
export type RequestClockSettingsRow = Selectable<RequestClockSettingsTable>;
export type WithholdingRow = Selectable<WithholdingsTable>;
export type ReleasePageRow = Selectable<ReleasePagesTable>;
export type RoleRow = Selectable<RolesTable>;
export type UserInvitationRow = Selectable<UserInvitationsTable>;
export type ExemptionRow = Selectable<ExemptionsTable>;
export type RedactionTemplateRow = Selectable<RedactionTemplatesTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookDeliveryAttemptRow = Selectable<WebhookDeliveryAttemptsTable>;
export type WatchedFolderRow = Selectable<WatchedFoldersTable>;
export type WatchedFileRow = Selectable<WatchedFilesTable>;
