import { Modal } from '../../components/Modal.js';
import type { Conflict } from './useRedactionEditor.js';

interface Props {
  conflict: Conflict;
  pendingChanges: number;
  onReapply: () => void;
  onClose: () => void;
}

/** 409 on save: someone saved the layer since it was loaded. Nothing is lost; the user chooses what next. */
export function ConflictDialog({ conflict, pendingChanges, onReapply, onClose }: Props) {
  return (
    <Modal
      title="Layer changed by someone else"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Not now
          </button>
          <button type="button" className="button primary" onClick={onReapply} data-autofocus>
            Reload and re-apply my changes
          </button>
        </>
      }
    >
      <p>
        Layer <strong>{conflict.layer}</strong> was saved by someone else after you opened this document
        {conflict.currentVersion !== null && <> (it is now at version {conflict.currentVersion})</>}.
      </p>
      <p>
        Your {pendingChanges} unsaved change{pendingChanges === 1 ? ' is' : 's are'} kept. Reload their version of the layer and save your changes on top of it,
        or close this message and keep working.
      </p>
    </Modal>
  );
}
