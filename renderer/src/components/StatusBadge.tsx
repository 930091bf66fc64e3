import type { CaseStatus } from '../api/types.js';
import { STATUS_LABELS } from '../domain/workflow.js';

export function StatusBadge({ status }: { status: CaseStatus }) {
  return <span className={`badge status-${status}`}>{STATUS_LABELS[status]}</span>;
}

export function PriorityBadge({ priority }: { priority: 'low' | 'normal' | 'high' | 'urgent' }) {
  return <span className={`badge priority-${priority}`}>{priority[0]!.toUpperCase() + priority.slice(1)}</span>;
}
