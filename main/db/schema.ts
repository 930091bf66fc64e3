import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

// Row types of every table. 0/1 columns are SQLite booleans; *_at columns are ISO 8601 UTC text.

export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  created_at: string;
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
  api_key_id: number;
  idempotency_key: string;
  fingerprint: string;
  state: 'running' | 'done';
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

export interface Database {
  document_pages: DocumentPagesTable;
  jobs: JobsTable;
  settings: SettingsTable;
  sessions: SessionsTable;
  redactions: RedactionsTable;
  layer_versions: LayerVersionsTable;
  layer_locks: LayerLocksTable;
  review_decisions: ReviewDecisionsTable;
  comments: CommentsTable;
  organizations: OrganizationsTable;
  users: UsersTable;
  service_accounts: ServiceAccountsTable;
  api_keys: ApiKeysTable;
  cases: CasesTable;
  blobs: BlobsTable;
  documents: DocumentsTable;
  upload_sessions: UploadSessionsTable;
  upload_files: UploadFilesTable;
  download_tokens: DownloadTokensTable;
  idempotency_keys: IdempotencyKeysTable;
  audit_log: AuditLogTable;
  outbox_events: OutboxEventsTable;
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
