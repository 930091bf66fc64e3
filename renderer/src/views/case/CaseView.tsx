import { useCallback, useState } from 'react';
import { getCase, listCaseDocuments } from '../../api/cases.js';
import { listDocumentJobs } from '../../api/jobs.js';
import type { Case, Document, Job } from '../../api/types.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { useJobTracker } from '../../hooks/useJobTracker.js';
import { useLoad } from '../../hooks/useLoad.js';
import { ExportDialog } from '../export/ExportDialog.js';
import { AuditPanel } from './AuditPanel.js';
import { CaseHeader } from './CaseHeader.js';
import { CommentsPanel } from './CommentsPanel.js';
import { DocumentsTable } from './DocumentsTable.js';
import { DuplicatesNotice } from './DuplicatesNotice.js';
import { ProcessAll } from './ProcessAll.js';
import { IntakePanel } from './IntakePanel.js';
import { SearchPanel } from './SearchPanel.js';
import { SuggestionsQueue } from './SuggestionsQueue.js';
import { UploadPanel } from './UploadPanel.js';

export function CaseView({ caseId }: { caseId: string }) {
  const record = useLoad((signal) => getCase(caseId, signal), [caseId]);
  const tracker = useJobTracker();
  const documents = useLoad(
    async (signal) => {
      const list = await listCaseDocuments(caseId, signal);
      // The latest jobs of each document, so their state shows (and running ones keep updating) after a reload.
      const jobs = await Promise.all(list.map((document) => listDocumentJobs(document.id, signal).catch((): Job[] => [])));
      for (const job of jobs.flat()) tracker.track(job);
      return list;
    },
    [caseId],
  );
  const [selected, setSelected] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);

  const onUploaded = useCallback(
    (created: Document[]) => {
      documents.setData((previous) => [...(previous ?? []), ...created.filter((item) => !(previous ?? []).some((existing) => existing.id === item.id))]);
      if (created[0]) setSelected(created[0].id);
    },
    [documents],
  );

  if (!record.data) {
    return (
      <section className="page">
        {record.error ? <ErrorBanner error={record.error} onRetry={record.reload} /> : <p className="muted">Loading case…</p>}
      </section>
    );
  }
  const current: Case = record.data;
  const selectedDocument = documents.data?.find((item) => item.id === selected) ?? null;

  return (
    <section className="page case-page" aria-labelledby="case-title">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <a href="#/cases">Case queue</a> <span aria-hidden="true">›</span> <span>Case {current.id}</span>
      </nav>
      <CaseHeader value={current} onChanged={(updated) => record.setData(updated)} onStale={record.reload} onExport={() => setExporting(true)} />
      <div className="case-columns">
        <div className="case-main">
          <UploadPanel caseId={caseId} disabled={current.status === 'deleted'} onUploaded={onUploaded} />
          <ErrorBanner error={documents.error} onRetry={documents.reload} />
          <DuplicatesNotice documents={documents.data ?? []} onRemoved={(id) => documents.setData((previous) => (previous ?? []).filter((item) => item.id !== id))} />
          <ProcessAll documents={documents.data ?? []} />
          <DocumentsTable documents={documents.data ?? []} loading={documents.loading} caseId={caseId} tracker={tracker} selected={selected} onSelect={setSelected} />
          <IntakePanel caseId={caseId} refreshKey={documents.data?.length ?? 0} />
          <SuggestionsQueue caseId={caseId} />
          <SearchPanel caseId={caseId} />
          <AuditPanel caseId={caseId} documents={documents.data ?? []} />
        </div>
        <aside className="case-side" aria-label="Comments">
          <CommentsPanel document={selectedDocument} />
        </aside>
      </div>
      {exporting && <ExportDialog value={current} documents={documents.data ?? []} onClose={() => setExporting(false)} />}
    </section>
  );
}
