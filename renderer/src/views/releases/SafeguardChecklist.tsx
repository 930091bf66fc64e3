import type { ReleaseCheck } from '../../api/releases.js';
import { documentName, formatMessage } from '../../domain/format.js';

const LABELS: Record<ReleaseCheck['checks'][number]['check'], { title: string; fix: string }> = {
  pending_suggestions: { title: 'No suggestion awaits a decision', fix: 'Accept or reject the suggestions' },
  unprocessed_documents: { title: 'Every document is processed (scan, OCR, detection)', fix: 'Run or retry processing' },
  case_approved: { title: 'The case is approved', fix: 'Submit the case for review and approve it' },
  separation_of_duties: { title: 'The approver did not draw or accept the redactions', fix: 'Another person approves' },
  changed_after_approval: { title: 'Nothing changed since the approval', fix: 'Review the changes and re-approve' },
};

interface Props {
  caseId: string;
  check: ReleaseCheck;
  /** File names of the case's documents, for the links to what blocks. */
  names: ReadonlyMap<string, string>;
  /** The server's answer whether this user may re-approve, and why not. */
  reapproval: { allowed: boolean; reason: string | null } | null;
  onReapprove: () => void;
  busy: boolean;
}

/** The safeguards as a checklist: what passes, what blocks and where to fix it. */
export function SafeguardChecklist({ caseId, check, names, reapproval, onReapprove, busy }: Props) {
  return (
    <ul className="safeguards" aria-label="Safeguards" data-ready={check.ready}>
      {check.checks.map((entry) => {
        const label = LABELS[entry.check];
        const block = check.blocks.find((item) => item.check === entry.check);
        const state = !entry.enabled ? 'off' : entry.passed ? 'passed' : 'blocked';
        return (
          <li key={entry.check} data-check={entry.check} data-state={state} className={`safeguard safeguard-${state}`}>
            <span className="safeguard-mark" aria-hidden="true">
              {state === 'passed' ? '✓' : state === 'off' ? '–' : '✗'}
            </span>
            <div>
              <strong>{label.title}</strong>
              {state === 'off' && <span className="muted"> (turned off for this organization)</span>}
              {block && (
                <div className="safeguard-block">
                  <span>{formatMessage(block.message)}</span>{' '}
                  {block.document_ids.map((id) => (
                    <a key={id} href={`#/documents/${id}?case=${caseId}`}>
                      {documentName(id, names)}
                    </a>
                  ))}
                  {block.document_ids.length === 0 && entry.check !== 'changed_after_approval' && <a href={`#/cases/${caseId}`}>{label.fix} in the case</a>}
                  {entry.check === 'changed_after_approval' &&
                    (reapproval?.allowed ? (
                      <button type="button" className="button small" onClick={onReapprove} disabled={busy}>
                        Re-approve…
                      </button>
                    ) : (
                      <span className="muted"> A reviewer re-approves it{reapproval?.reason ? ` (${formatMessage(reapproval.reason).replace(/\.$/, '')})` : ''}.</span>
                    ))}
                </div>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
