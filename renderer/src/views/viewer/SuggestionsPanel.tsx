import { entityLabel as kindLabel } from '../../domain/entities.js';
import type { EditorBox } from '../../domain/redaction-editor.js';
import { groupSuggestions } from '../../domain/redaction-editor.js';
import { LAYER_INFO } from './layers.js';
import { listCaseSuggestions } from '../../api/review-queue.js';
import { useLoad } from '../../hooks/useLoad.js';

interface Props {
  /** The document's case: the case's suggestions queue supplies each suggestion's text and context. */
  caseId: string | null;
  suggestions: readonly EditorBox[];
  busy: boolean;
  onDecide: (boxes: readonly EditorBox[], decision: 'accept' | 'reject') => void;
  onShow: (box: EditorBox) => void;
}

function score(box: EditorBox): string | null {
  const value = box.pendingReason?.score;
  return typeof value === 'number' ? `${Math.round(value * 100)}%` : null;
}

/** Staged suggestions, apart from the redactions: accept or reject one, or all of one kind. */
export function SuggestionsPanel({ caseId, suggestions, busy, onDecide, onShow }: Props) {
  // The words under each box and around it, as the case's queue reads them from the page.
  const queue = useLoad((signal) => (caseId ? listCaseSuggestions(caseId, signal) : Promise.resolve(null)), [caseId, suggestions.length]);
  const texts = new Map((queue.data?.items ?? []).map((item) => [item.redaction_id, item]));
  if (suggestions.length === 0) {
    return <p className="muted">No suggestions waiting. Run detection from the case to find personal information.</p>;
  }
  const groups = [...groupSuggestions(suggestions)].sort(([a], [b]) => a.localeCompare(b));
  return (
    <div className="suggestions">
      <div className="suggestions-all">
        <span>{suggestions.length} waiting for review</span>
        <button type="button" className="button small primary" disabled={busy} onClick={() => onDecide(suggestions, 'accept')}>
          Accept all
        </button>
      </div>
      {groups.map(([kind, boxes]) => (
        <section key={kind} className="suggestion-group" aria-label={`${kindLabel(kind)} suggestions`} data-kind={kind}>
          <header>
            <h3>
              {kindLabel(kind)} <span className="muted">({boxes.length})</span>
            </h3>
            <button type="button" className="button small" disabled={busy} onClick={() => onDecide(boxes, 'accept')} aria-label={`Accept all ${kindLabel(kind)}`}>
              Accept all
            </button>
            <button type="button" className="button small ghost" disabled={busy} onClick={() => onDecide(boxes, 'reject')} aria-label={`Reject all ${kindLabel(kind)}`}>
              Reject all
            </button>
          </header>
          <ul>
            {boxes.map((box) => (
              <li key={box.redactionId} data-redaction-id={box.redactionId}>
                <button type="button" className="link suggestion-show" onClick={() => onShow(box)} title={texts.get(box.redactionId)?.context ?? 'Show on the page'}>
                  <strong className="suggestion-text">{texts.get(box.redactionId)?.text || '(text not read yet)'}</strong>
                  <span className="muted">
                    {' '}
                    Page {box.page} · {LAYER_INFO[box.layer].exemption}
                    {score(box) && ` · ${score(box)}`}
                  </span>
                </button>
                <span className="spacer" />
                <button type="button" className="button tiny" disabled={busy} onClick={() => onDecide([box], 'accept')} aria-label={`Accept ${kindLabel(kind)} on page ${box.page}`}>
                  Accept
                </button>
                <button type="button" className="button tiny ghost" disabled={busy} onClick={() => onDecide([box], 'reject')} aria-label={`Reject ${kindLabel(kind)} on page ${box.page}`}>
                  Reject
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
