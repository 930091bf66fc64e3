import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { getCase, getCasePermissions, listCaseDocuments } from '../../api/cases.js';
import { getJob, listDocumentJobs } from '../../api/jobs.js';
import type { Case, Document, Job } from '../../api/types.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { useCaseProcessing } from '../../hooks/useCaseProcessing.js';
import { useJobTracker } from '../../hooks/useJobTracker.js';
import { useLoad } from '../../hooks/useLoad.js';
import { ExportDialog } from '../export/ExportDialog.js';
import { AuditPanel } from './AuditPanel.js';
import { AutomaticProgress } from './AutomaticProgress.js';
import { CaseHeader } from './CaseHeader.js';
import { CommentsPanel } from './CommentsPanel.js';
import { DocumentsTable } from './DocumentsTable.js';
import { DuplicatesNotice } from './DuplicatesNotice.js';
import { ProcessAll } from './ProcessAll.js';
import { IntakePanel } from './IntakePanel.js';
import { PasswordNotice } from './PasswordPrompt.js';
import { RequestClockPanel } from './RequestClockPanel.js';
import { SearchPanel } from './SearchPanel.js';
import { SuggestionsQueue } from './SuggestionsQueue.js';
import { UploadPanel } from './UploadPanel.js';

const CONVERTED_BY_INTAKE = new Set(['email', 'office', 'text']);

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
  // What the signed-in user may do here, asked again whenever the case changes.
  const permissions = useLoad((signal) => getCasePermissions(caseId, signal), [caseId, record.data?.updated_at, record.data?.status]);
  const may = (name: 'upload' | 'process') => permissions.data?.actions[name].allowed === true;
  const [selected, setSelected] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [runs, setRuns] = useState(0);

  // Automatic processing, polled; a new upload or an unlocked document asks at once.
  const documentsKey = (documents.data ?? []).map((document) => `${document.id}:${document.password_state ?? ''}`).join(',');
  const automatic = useCaseProcessing(caseId, documentsKey);
  const entries = useMemo(() => new Map((automatic.progress?.documents ?? []).map((entry) => [entry.document_id, entry])), [automatic.progress]);
  // The jobs automatic processing starts are tracked like clicked ones, so each row's buttons show them live.
  const requested = useRef(new Set<string>());
  useEffect(() => {
    for (const entry of entries.values()) {
      const id = entry.job?.id;
      if (!id || requested.current.has(id) || tracker.jobs.has(id)) continue;
      requested.current.add(id);
      getJob(id).then(tracker.track, () => requested.current.delete(id));
    }
  }, [entries, tracker]);
  // Documents that arrived some other way (watched folder, API, e-mail attachments) or were unlocked elsewhere
  // show up: the list loads again once per new difference.
  const lastDifference = useRef('');
  useEffect(() => {
    const listed = new Map((documents.data ?? []).map((document) => [document.id, document]));
    if (!documents.data || documents.loading) return;
    const differs = [...entries.values()].filter((entry) => {
      const document = listed.get(entry.document_id);
      // An e-mail, Office or text file listed before intake converted it: its type (and "Process all"'s count) is stale.
      const converted = document && CONVERTED_BY_INTAKE.has(document.document_type) && entry.state !== 'waiting' && entry.state !== 'not_started';
      return !document || converted || (document.password_state === 'needs_password') !== (entry.state === 'needs_password');
    });
    const difference = differs.map((entry) => `${entry.document_id}:${entry.state}`).join(',');
    if (difference && difference !== lastDifference.current) documents.reload();
    lastDifference.current = difference;
  }, [entries, documents]);
  // The suggestions queue loads again when detection has finished somewhere in the case.
  const detections = [...tracker.jobs.values()].filter((job) => job.kind === 'detection' && job.status === 'completed').length;
  const queueKey = `${automatic.progress?.done ?? 0}:${detections}:${runs}`;

  const onUnlocked = useCallback((unlocked: Document) => documents.setData((previous) => (previous ?? []).map((item) => (item.id === unlocked.id ? unlocked : item))), [documents]);

  const onUploaded = useCallback(
    (created: Document[]) => {
      documents.setData((previous) => [...(previous ?? []), ...created.filter((item) => !(previous ?? []).some((existing) => existing.id === item.id))]);
      if (created[0]) setSelected(created[0].id);
    },
    [documents],
  );

  // The case's column appears once what decides its height has arrived (the permissions choose the drop zone,
  // the documents fill the table, automatic processing its progress), so nothing jumps under the pointer
  // while the page loads; later reloads keep the previous data on screen.
  const firstLoad = useRef(false);
  firstLoad.current ||= (permissions.data !== null || permissions.error !== null) && (documents.data !== null || documents.error !== null) && (automatic.progress !== null || automatic.error !== null);

  if (!record.data) {
    return (
      <section className="page">
        {record.error ? <ErrorBanner error={record.error} onRetry={record.reload} /> : <p className="muted">Loading case…</p>}
      </section>
    );
  }
  const current: Case = record.data;
  const selectedDocument = documents.data?.find((item) => item.id === selected) ?? null;
  const names = new Map((documents.data ?? []).map((item) => [item.id, item.fileName]));

  return (
    <section className="page case-page" aria-labelledby="case-title">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <a href="#/cases">Case queue</a> <span aria-hidden="true">›</span> <span>Case {current.id}</span>
      </nav>
      <CaseHeader value={current} permissions={permissions.data} onChanged={(updated) => record.setData(updated)} onStale={() => { record.reload(); permissions.reload(); }} onExport={() => setExporting(true)} names={names} />
      <div className="case-columns">
        <div className="case-main" aria-busy={!firstLoad.current}>
          {!firstLoad.current ? <p className="muted">Loading documents…</p> : <>
          {may('upload') && <UploadPanel caseId={caseId} disabled={current.status === 'deleted'} onUploaded={onUploaded} />}
          <ErrorBanner error={documents.error} onRetry={documents.reload} />
          <DuplicatesNotice documents={documents.data ?? []} onRemoved={(id) => documents.setData((previous) => (previous ?? []).filter((item) => item.id !== id))} />
          <PasswordNotice documents={documents.data ?? []} onUnlocked={onUnlocked} />
          <ProcessAll canProcess={may('process')} documents={documents.data ?? []} automatic={<AutomaticProgress progress={automatic.progress} error={automatic.error} />} onFinished={() => setRuns((value) => value + 1)} />
          <DocumentsTable canProcess={may('process')} documents={documents.data ?? []} loading={documents.loading} caseId={caseId} tracker={tracker} selected={selected} onSelect={setSelected} automatic={entries} />
          <IntakePanel caseId={caseId} refreshKey={documents.data?.length ?? 0} names={names} />
          <SuggestionsQueue caseId={caseId} refreshKey={queueKey} />
          <SearchPanel caseId={caseId} />
          <AuditPanel caseId={caseId} documents={documents.data ?? []} />
          </>}
        </div>
        <div className="case-side">
          <RequestClockPanel value={current} onChanged={record.reload} />
          <aside aria-label="Comments">
            <CommentsPanel document={selectedDocument} />
          </aside>
        </div>
      </div>
      {exporting && <ExportDialog value={current} documents={documents.data ?? []} onClose={() => setExporting(false)} />}
    </section>
  );
}
