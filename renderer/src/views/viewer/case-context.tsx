import { useState } from 'react';
import { getCase } from '../../api/cases.js';
import { listWithholdings } from '../../api/releases.js';
import { Modal } from '../../components/Modal.js';
import { useLoad } from '../../hooks/useLoad.js';

/** What the viewer needs from the document's case: pages withheld in full (page → exemption) and whether it is approved. */
export function useCaseContext(documentId: string, caseId: string | null) {
  const loaded = useLoad(
    async (signal) => {
      if (!caseId) return { withheld: new Map<number, string>(), whole: null, approved: false };
      const [value, withholdings] = await Promise.all([getCase(caseId, signal), listWithholdings(caseId, signal)]);
      const withheld = new Map<number, string>();
      let whole = null as string | null;
      for (const entry of withholdings.filter((row) => row.document_id === documentId)) {
        if (entry.pages === null) whole = entry.exemption;
        else for (let page = entry.pages.from; page <= entry.pages.to; page += 1) withheld.set(page, entry.exemption);
      }
      return { withheld, whole, approved: value.status === 'approved' };
    },
    [documentId, caseId],
  );
  const data = loaded.data;
  /** The exemption a page is withheld under in full, or null. */
  const withheldAs = (page: number): string | null => data?.whole ?? data?.withheld.get(page) ?? null;
  return { withheldAs, approved: data?.approved ?? false, reload: loaded.reload };
}

/** Saving on an approved case reopens its review: the user is told first and chooses. */
export function useApprovedEditGuard(approved: boolean, save: () => void) {
  const [asking, setAsking] = useState(false);
  const [accepted, setAccepted] = useState(false);
  const guardedSave = () => (approved && !accepted ? setAsking(true) : save());
  const dialog = asking ? (
    <Modal
      title="Change an approved case?"
      onClose={() => setAsking(false)}
      footer={
        <>
          <button type="button" className="button" onClick={() => setAsking(false)}>
            Keep the approval
          </button>
          <button
            type="button"
            className="button primary"
            data-autofocus
            onClick={() => {
              setAsking(false);
              setAccepted(true);
              save();
            }}
          >
            Save and reopen review
          </button>
        </>
      }
    >
      <p>This case is approved. Saving these redactions reopens its review: a reviewer must re-approve it before it can be released.</p>
    </Modal>
  ) : null;
  return { guardedSave, dialog };
}
