// The case workflow as docs/api.md "Cases" states it; test/unit/renderer-domain.test.ts checks it against the
// server's own table, so the buttons offered here are exactly the transitions the server allows.
import type { CaseAction, CaseStatus } from '../api/types.js';

export const WORKFLOW: Readonly<Record<CaseAction, { from: readonly CaseStatus[]; to: CaseStatus; label: string }>> = {
  start: { from: ['open', 'rejected'], to: 'in_progress', label: 'Start work' },
  submit: { from: ['in_progress'], to: 'in_review', label: 'Submit for review' },
  approve: { from: ['in_review'], to: 'approved', label: 'Approve' },
  reject: { from: ['in_review'], to: 'rejected', label: 'Send back' },
  cancel: { from: ['open', 'in_progress', 'in_review', 'rejected'], to: 'cancelled', label: 'Cancel case' },
};

const ACTION_ORDER: readonly CaseAction[] = ['start', 'submit', 'approve', 'reject', 'cancel'];

export function allowedActions(status: CaseStatus): CaseAction[] {
  return ACTION_ORDER.filter((action) => WORKFLOW[action].from.includes(status));
}

export const FINAL_STATUSES: readonly CaseStatus[] = ['approved', 'cancelled', 'deleted'];

export const STATUS_LABELS: Readonly<Record<CaseStatus, string>> = {
  open: 'Open',
  in_progress: 'In progress',
  in_review: 'In review',
  approved: 'Approved',
  rejected: 'Sent back',
  cancelled: 'Cancelled',
  deleted: 'Deleted',
};
