// Resource types shared with the server: imported as types only from main/common, so the renderer and the
// routes cannot drift apart and no server code (zod) is bundled.
export type { Case, CaseStatus, CaseAction } from '../../../main/common/schemas/cases.js';
export type { CasePermissions } from '../../../main/common/schemas/case-permissions.js';
export type { CaseClock, ClockEvent, ClockEventBody, ClockSettings, RequestClock } from '../../../main/common/schemas/request-clock.js';
export type { Document, UploadSession, DownloadUrl } from '../../../main/common/schemas/documents.js';
export type { HiddenContentKind, Job, JobKind, JobStatus, ScanResult } from '../../../main/common/schemas/jobs.js';
export type { Comment, ReviewDecision } from '../../../main/common/schemas/redactions.js';
export type { Layer, RedactionKind, RedactionState, ClassificationType } from '../../../main/common/redaction-catalog.js';
export type { DetectionResult, EntityKind } from '../../../main/common/schemas/detection.js';
export type { ObscuraDesktopApi } from '../../../main/common/desktop-api.js';

export interface SessionUser {
  id: string;
  username: string;
  display_name: string;
  is_admin: boolean;
  organization_id: string;
}
