import { entityLabel as kindLabel } from '../../domain/entities.js';
import type { EditorBox } from '../../domain/redaction-editor.js';
import { groupSuggestions } from '../../domain/redaction-editor.js';
import { LAYER_INFO } from './layers.js';

interface Props {
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
export function SuggestionsPanel({ suggestions, busy, onDecide, onShow }: Props) {
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
                <button type="button" className="link" onClick={() => onShow(box)} title="Show on the page">
                  Page {box.page} · {LAYER_INFO[box.layer].exemption}
                  {score(box) && <span className="muted"> · {score(box)}</span>}
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
