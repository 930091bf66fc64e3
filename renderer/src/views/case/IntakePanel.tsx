import { familyOrder } from '../../domain/collections.js';
import { useEffect, useState } from 'react';
import { getFamily, listCaseIntake, type CaseIntakeList, type Family, type IntakeFilter } from '../../api/intake.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { useLoad } from '../../hooks/useLoad.js';
import { documentName } from '../../domain/format.js';
import '../../styles/intake.css';

// Issue 19: the case's documents as intake sees them: e-mail families (attachments under their message),
// threads (the inclusive message marked, so a thread is reviewed once), exact and near duplicates, and
// conversion state (waiting for LibreOffice, failed with its reason). Filters are the API's own.

type Entry = CaseIntakeList[number];

const FILTERS: readonly { value: IntakeFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'duplicates', label: 'Duplicates' },
  { value: 'thread', label: 'Thread' },
  { value: 'has_attachments', label: 'Has attachments' },
];

const STATUS: Record<string, string> = {
  not_needed: '',
  pending: 'waiting',
  converting: 'converting',
  converted: 'converted',
  needs_libreoffice: 'needs LibreOffice',
  failed: 'failed',
};

const SOURCE: Record<string, string> = { pdf: 'PDF', email: 'e-mail', office: 'Office file', image: 'image', text: 'text', audio: 'audio' };

/** What a row says after its title: the file name when the title is not it, the kind of file, the conversion state. */
function facts(entry: Entry): string {
  const name = entry.document.fileName;
  const status = STATUS[entry.intake.status] ?? entry.intake.status.replaceAll('_', ' ');
  return [title(entry) !== name && name, SOURCE[entry.document.source_type] ?? entry.document.source_type, status].filter(Boolean).join(' · ');
}

function title(entry: Entry): string {
  return entry.document.email?.subject ? `${entry.document.email.subject}` : entry.document.fileName;
}

/** Another document of the case by its file name, opening it in the viewer. */
function DocumentLink({ id, caseId, names }: { id: string; caseId: string; names: ReadonlyMap<string, string> }) {
  return <a href={`#/documents/${id}?case=${caseId}`}>{documentName(id, names)}</a>;
}

function Marks({ entry, names }: { entry: Entry; names: ReadonlyMap<string, string> }) {
  const { intake } = entry;
  const caseId = entry.document.case_id;
  return (
    <span className="intake-marks">
      {intake.duplicate_of && (
        <span className="badge badge-warning">
          duplicate of <DocumentLink id={intake.duplicate_of} caseId={caseId} names={names} />
        </span>
      )}
      {intake.near_duplicate_of && (
        <span className="badge badge-info">
          near-duplicate of <DocumentLink id={intake.near_duplicate_of} caseId={caseId} names={names} /> ({Math.round((intake.near_duplicate_score ?? 0) * 100)}%)
        </span>
      )}
      {intake.thread_id && (
        <span className="badge" title={`Thread ${intake.thread_id}`}>
          in a thread
        </span>
      )}
      {intake.thread_inclusive && <span className="badge badge-ok">inclusive: review this one</span>}
      {intake.children > 0 && <span className="badge">{intake.children} attached</span>}
    </span>
  );
}

function FamilyTree({ family, selected }: { family: Family; selected: string }) {
  return (
    <ul className="intake-tree" aria-label="Family">
      {family.members.map((member) => (
        <li key={member.document.id} style={{ paddingLeft: `${member.depth * 1.25}rem` }} aria-current={member.document.id === selected ? 'true' : undefined} data-depth={member.depth}>
          <span aria-hidden="true">{member.depth > 0 ? '└ ' : ''}</span>
          <a href={`#/documents/${member.document.id}?case=${member.document.case_id}`}>{member.document.fileName}</a>
          {member.document.email?.subject && <span className="muted"> — {member.document.email.subject}</span>}
          {STATUS[member.intake.status] !== '' && <span className="muted"> ({STATUS[member.intake.status] ?? member.intake.status})</span>}
        </li>
      ))}
    </ul>
  );
}

function Details({ caseId, entry }: { caseId: string; entry: Entry }) {
  const id = entry.document.id;
  const threadId = entry.intake.thread_id;
  const family = useLoad((signal) => getFamily(id, signal), [id]);
  const thread = useLoad((signal) => (threadId ? listCaseIntake(caseId, 'all', threadId, signal) : Promise.resolve([] as CaseIntakeList)), [caseId, threadId]);
  return (
    <div className="intake-details">
      {entry.intake.error && <p className="banner banner-error">{entry.intake.error}</p>}
      {entry.intake.warnings.length > 0 && (
        <ul className="muted" aria-label="Warnings">
          {entry.intake.warnings.slice(0, 5).map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
      <h4>Family</h4>
      <ErrorBanner error={family.error} onRetry={family.reload} />
      {family.data && <FamilyTree family={family.data} selected={id} />}
      {threadId && (
        <>
          <h4>Thread</h4>
          <ol className="intake-thread" aria-label="Thread">
            {(thread.data ?? []).map((member) => (
              <li key={member.document.id}>
                {member.document.email?.date && <span className="muted">{member.document.email.date} · </span>}
                {member.document.email?.from ?? ''} — {title(member)}
                {member.intake.thread_inclusive && <strong> (inclusive: review this one)</strong>}
                {member.intake.duplicate_of && <span className="muted"> (duplicate)</span>}
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}

/** `names`: the case's documents by id (file names), for the documents a badge refers to that the filter hides. */
export function IntakePanel({ caseId, refreshKey, names = new Map() }: { caseId: string; refreshKey?: unknown; names?: ReadonlyMap<string, string> }) {
  const [filter, setFilter] = useState<IntakeFilter>('all');
  const [selected, setSelected] = useState<string | null>(null);
  const list = useLoad((signal) => listCaseIntake(caseId, filter, null, signal), [caseId, filter, refreshKey]);
  const entries = familyOrder(list.data ?? []);
  const busy = entries.some((entry) => entry.intake.status === 'pending' || entry.intake.status === 'converting');
  const { reload } = list;
  // Conversion runs in the background: look again while anything is still on its way.
  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(reload, 2_000);
    return () => clearTimeout(timer);
  }, [busy, entries, reload]);
  const current = entries.find((entry) => entry.document.id === selected) ?? null;
  const known = new Map([...names, ...entries.map((entry): [string, string] => [entry.document.id, entry.document.fileName])]);
  return (
    <section className="panel intake-panel" aria-label="Families and threads">
      <h3>Families and threads</h3>
      <div className="intake-filters" role="group" aria-label="Show">
        {FILTERS.map((option) => (
          <button key={option.value} type="button" className={filter === option.value ? 'button primary' : 'button'} aria-pressed={filter === option.value} onClick={() => setFilter(option.value)}>
            {option.label}
          </button>
        ))}
      </div>
      <ErrorBanner error={list.error} onRetry={list.reload} />
      {entries.length === 0 && !list.loading ? <p className="muted">No documents match.</p> : null}
      <ul className="intake-list" aria-label="Intake documents">
        {entries.map((entry) => (
          <li
            key={entry.document.id}
            data-document-id={entry.document.id}
            data-depth={entry.depth}
            style={entry.depth > 0 ? { paddingLeft: `${entry.depth * 1.25}rem` } : undefined}
            className={entry.document.id === selected ? 'selected' : undefined}
          >
            {entry.depth > 0 && <span aria-label="attached to the message above">└ </span>}
            <button type="button" className="link" onClick={() => setSelected(entry.document.id === selected ? null : entry.document.id)} aria-expanded={entry.document.id === selected}>
              {title(entry)}
            </button>
            <span className="muted">
              {' '}
              {facts(entry)}
            </span>{' '}
            <Marks entry={entry} names={known} />
            {entry.document.id === selected && current && <Details caseId={caseId} entry={current} />}
          </li>
        ))}
      </ul>
    </section>
  );
}
