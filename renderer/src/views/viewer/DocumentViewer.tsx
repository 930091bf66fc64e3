import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { fetchDocumentBytes, getDocument } from '../../api/documents.js';
import type { Layer } from '../../api/types.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { changeCount, dirtyLayers, drawnBoxes, isSavedBox, newBox, pendingSuggestions, type EditorBox } from '../../domain/redaction-editor.js';
import { setLeaveGuard } from '../../hooks/useHashRoute.js';
import { useLoad } from '../../hooks/useLoad.js';
import { ConflictDialog } from './ConflictDialog.js';
import { ContinuousPages } from './ContinuousPages.js';
import { LayerPicker, type LayerChoice } from './LayerPicker.js';
import { LAYERS, LAYER_COLORS, LAYER_INFO } from './layers.js';
import { ImageView, loadImage, type LoadedImage } from './ImageView.js';
import { PageRangeForm } from './PageRangeForm.js';
import { PasswordForm } from '../case/PasswordPrompt.js';
import { HiddenContentPanel, HiddenOverlay, useHiddenContent } from './HiddenContent.js';
import { OcrPanel } from './OcrPanel.js';
import { PageView, type PageGeometry } from './PageView.js';
import { PreviewView } from './PreviewView.js';
import { openPdf, type PDFDocumentProxy } from './pdf.js';
import { openTiff, UnsupportedTiffError } from './tiff.js';
import { RedactionOverlay, type Drawn, type Tool } from './RedactionOverlay.js';
import { SuggestionsPanel } from './SuggestionsPanel.js';
import { SummaryPanel } from './SummaryPanel.js';
import { Thumbnails } from './Thumbnails.js';
import { useRedactionEditor } from './useRedactionEditor.js';
import { useApprovedEditGuard, useCaseContext } from './case-context.js';
import { snapToWords, usePageWords } from './word-select.js';
import { ICONS } from './ToolbarIcons.js';
import { ViewerToolbar, ZOOM_STEPS } from './ViewerToolbar.js';

type Tab = 'redact' | 'suggestions' | 'text' | 'summary';
export type Zoom = { mode: 'fit' } | { mode: 'scale'; scale: number };

const TABS: { id: Tab; label: string }[] = [
  { id: 'redact', label: 'Redact' },
  { id: 'suggestions', label: 'Suggestions' },
  { id: 'text', label: 'OCR text' },
  { id: 'summary', label: 'Summary' },
];

const TOOL_KEYS: Record<string, Tool> = { v: 'select', r: 'rectangle', t: 'words', p: 'polygon', f: 'freehand', g: 'full_page' };

function typingInField(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/** The page and box a link asks the viewer to show first. */
function focusFromHash(): { page: number | null; redaction: string | null; continuous: boolean } {
  const params = new URLSearchParams(window.location.hash.split('?')[1] ?? '');
  const page = Number(params.get('page'));
  return { page: Number.isInteger(page) && page >= 1 ? page : null, redaction: params.get('redaction'), continuous: params.get('view') === 'continuous' };
}

export function DocumentViewer({ documentId, caseId }: { documentId: string; caseId: string | null }) {
  const meta = useLoad((signal) => getDocument(documentId, signal), [documentId]);
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [image, setImage] = useState<LoadedImage | null>(null);
  const [pdfError, setPdfError] = useState<unknown>(null);
  const [tiffRefusal, setTiffRefusal] = useState<string | null>(null);
  // A link from the case's search or suggestions queue names the page and the box to show (…?page=3&redaction=<id>).
  const [focus] = useState(focusFromHash);
  const [page, setPage] = useState(focus.page ?? 1);
  const [zoom, setZoom] = useState<Zoom>({ mode: 'fit' });
  // Continuous: every page in one scrolling column (rendered lazily); otherwise one page at a time.
  const [continuous, setContinuous] = useState(focus.continuous);
  // The current page as the export's burn-in releases it (server-made), instead of the editable page.
  const [preview, setPreview] = useState(false);
  const [tool, setTool] = useState<Tool>('rectangle');
  const [choice, setChoice] = useState<LayerChoice>({ layer: 'B6', reason: '', classification: '' });
  const [classificationMissing, setClassificationMissing] = useState(false);
  const [selectedId, setSelectedId] = useState<string | null>(focus.redaction);
  const [tab, setTab] = useState<Tab>('redact');
  const [stageWidth, setStageWidth] = useState(800);
  const [baseWidth, setBaseWidth] = useState<number | null>(null);
  const stage = useRef<HTMLDivElement>(null);
  const documentType = meta.data?.document_type;
  const isPdf = documentType === 'pdf';
  const isImage = documentType === 'png' || documentType === 'jpeg';
  // A TIFF is shown through pdf.js (one PDF page per TIFF page) but measured, like any image, in its pixels.
  const isTiff = documentType === 'tiff';
  const viewable = isPdf || isImage || isTiff;
  // A PDF waiting for its password is not opened (pdf.js would only refuse it); the prompt takes its place.
  const locked = meta.data?.password_state === 'needs_password';
  const editor = useRedactionEditor(documentId, isImage || isTiff ? 'image' : 'pdf');
  const pageWords = usePageWords(documentId, tool === 'words', isImage || isTiff ? 'image_pixels' : 'pdf_points');
  const [wordNote, setWordNote] = useState<string | null>(null);
  const caseContext = useCaseContext(documentId, caseId ?? meta.data?.case_id ?? null);
  const guard = useApprovedEditGuard(caseContext.approved, () => void editor.save());
  // Text the latest scan found hidden in the PDF: outlined and listed only when the clerk asks.
  const hiddenRegions = useHiddenContent(documentId, isPdf);
  const [showHidden, setShowHidden] = useState(false);

  useEffect(() => {
    if (!isImage || !meta.data) return;
    const controller = new AbortController();
    let url: string | null = null;
    const mediaType = meta.data.media_type;
    fetchDocumentBytes(documentId, controller.signal)
      .then((bytes) => loadImage(bytes, mediaType))
      .then(
        (loaded) => {
          url = loaded.url;
          if (controller.signal.aborted) URL.revokeObjectURL(loaded.url);
          else setImage(loaded);
        },
        (error: unknown) => !controller.signal.aborted && setPdfError(error),
      );
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [documentId, isImage, meta.data]);

  useEffect(() => {
    if ((!isPdf && !isTiff) || locked) return;
    const controller = new AbortController();
    let destroy: (() => void) | null = null;
    fetchDocumentBytes(documentId, controller.signal)
      .then((bytes) => {
        if (controller.signal.aborted) return null;
        const opened = isTiff ? openTiff(bytes) : openPdf(bytes);
        destroy = opened.destroy;
        return opened.promise;
      })
      .then(
        (loaded) => loaded && !controller.signal.aborted && setPdf(loaded),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          if (error instanceof UnsupportedTiffError) setTiffRefusal(error.reason);
          else setPdfError(error);
        },
      );
    return () => {
      controller.abort();
      destroy?.();
    };
  }, [documentId, isPdf, isTiff, locked]);

  // Fit-to-width needs the stage width and the current page's width at scale 1.
  useEffect(() => {
    const element = stage.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => entry && setStageWidth(entry.contentRect.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, [pdf, image]);
  useEffect(() => {
    if (image) setBaseWidth(image.width);
  }, [image]);
  useEffect(() => {
    if (!pdf) return;
    let cancelled = false;
    pdf.getPage(page).then((loaded) => !cancelled && setBaseWidth(loaded.getViewport({ scale: 1 }).width), () => undefined);
    return () => {
      cancelled = true;
    };
  }, [pdf, page]);

  const scale = zoom.mode === 'scale' ? zoom.scale : baseWidth ? Math.max(0.25, Math.min(4, (stageWidth - 48) / baseWidth)) : 1;
  const pageCount = pdf?.numPages ?? (image ? 1 : 0);
  const goTo = useCallback((target: number) => setPage((current) => (pageCount ? Math.max(1, Math.min(pageCount, target)) : current)), [pageCount]);

  const zoomBy = useCallback(
    (direction: 1 | -1) => {
      const next = direction > 0 ? ZOOM_STEPS.find((step) => step > scale + 0.01) : [...ZOOM_STEPS].reverse().find((step) => step < scale - 0.01);
      if (next) setZoom({ mode: 'scale', scale: next });
    },
    [scale],
  );

  const drawn = drawnBoxes(editor.state);
  const suggestions = pendingSuggestions(editor.state);
  const boxesOf = useCallback(
    (number: number) => drawn.filter((box) => box.page === number).map((box) => ({ ...box, unsaved: !isSavedBox(editor.state, box.redactionId) })),
    [drawn, editor.state],
  );
  const pageBoxes = useMemo(() => boxesOf(page), [boxesOf, page]);
  const pageSuggestions = suggestions.filter((box) => box.page === page);
  const markedPages = useMemo(() => new Set([...drawn, ...suggestions].map((box) => box.page)), [drawn, suggestions]);
  const unsaved = changeCount(editor.state);
  const dirty = dirtyLayers(editor.state);

  const onDraw = useCallback(
    (shape: Drawn, onPage: number = page) => {
      if (onPage !== page) setPage(onPage);
      if (choice.layer === 'B1' && !choice.classification) {
        setClassificationMissing(true);
        setTab('redact');
        return;
      }
      setClassificationMissing(false);
      // The words tool: the dragged rectangle becomes one box per line of the words it touches.
      const [start, end] = shape.points;
      const words = tool === 'words' && start && end;
      const areas = words ? snapToWords(pageWords.words?.get(onPage) ?? [], start, end, !(isImage || isTiff)) : [shape.box];
      setWordNote(words && areas.length === 0 ? (pageWords.words ? `No words under the selection on page ${onPage}.` : 'The words of this document are not read yet: run OCR (it also reads a text layer), then select again.') : null);
      for (const area of areas) {
        const box = newBox({
          redactionId: crypto.randomUUID(),
          page: onPage,
          kind: shape.kind,
          layer: choice.layer,
          box: area,
          points: words ? [] : shape.points,
          reason: choice.reason.trim() || null,
          classification: choice.classification || null,
        });
        editor.add(box);
        setSelectedId(box.redactionId);
      }
      // A reason belongs to the box it was written for, not to every later one.
      if (areas.length > 0 && choice.reason) setChoice((previous) => ({ ...previous, reason: '' }));
    },
    [choice, editor, page, tool, pageWords.words, isImage, isTiff],
  );

  const [rangeBusy, setRangeBusy] = useState(false);
  /** One full-page box per page from..to, each covering that page's own view box. */
  const redactPages = useCallback(
    async (from: number, to: number) => {
      if (choice.layer === 'B1' && !choice.classification) return setClassificationMissing(true);
      setRangeBusy(true);
      try {
        for (let number = from; number <= to; number += 1) {
          let view: number[] = image ? [0, 0, image.width, image.height] : [];
          if (pdf) {
            const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = (await pdf.getPage(number)).view;
            view = isTiff ? [0, 0, x2 - x1, y2 - y1] : [x1, y1, x2, y2];
          }
          const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = view;
          const reason = choice.reason.trim() || null;
          editor.add(newBox({ redactionId: crypto.randomUUID(), page: number, kind: 'rectangle', layer: choice.layer, box: { x1, y1, x2, y2 }, reason, classification: choice.classification || null }));
        }
      } finally {
        setRangeBusy(false);
      }
    },
    [choice, editor, image, pdf, isTiff],
  );

  const removeSelected = useCallback(() => {
    if (!selectedId) return;
    editor.remove(selectedId);
    setSelectedId(null);
  }, [editor, selectedId]);

  // Keyboard: pages, zoom, tools, layers, delete, save, undo. Not while typing in a field.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      if (mod && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void editor.save();
        return;
      }
      if (typingInField(event.target) || event.altKey) return;
      if (mod && event.key.toLowerCase() === 'z') {
        event.preventDefault();
        editor.undo();
        return;
      }
      if (mod) return;
      const key = event.key;
      if (key === 'PageDown' || key === 'ArrowRight' || key === 'j') goTo(page + 1);
      else if (key === 'PageUp' || key === 'ArrowLeft' || key === 'k') goTo(page - 1);
      else if (key === 'Home') goTo(1);
      else if (key === 'End') goTo(pageCount);
      else if (key === '+' || key === '=') zoomBy(1);
      else if (key === '-') zoomBy(-1);
      else if (key === '0') setZoom({ mode: 'fit' });
      else if (key === 'Delete' || key === 'Backspace') removeSelected();
      else if (key === 'Escape') setSelectedId(null);
      else if (TOOL_KEYS[key.toLowerCase()]) setTool(TOOL_KEYS[key.toLowerCase()]!);
      else if (/^[1-7]$/.test(key)) setChoice((previous) => ({ ...previous, layer: LAYERS[Number(key) - 1]! }));
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [editor, goTo, page, pageCount, removeSelected, zoomBy]);

  // Leaving with unsaved changes asks first: the browser's own prompt when the window closes or reloads, a
  // question when another view of the app is opened (link, menu, back button).
  useEffect(() => {
    if (unsaved === 0) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    const removeGuard = setLeaveGuard(() => `You have ${unsaved} unsaved change${unsaved === 1 ? '' : 's'} on this document. Leave without saving them?`);
    return () => {
      window.removeEventListener('beforeunload', warn);
      removeGuard();
    };
  }, [unsaved]);

  const onPageError = useCallback((error: unknown) => setPdfError(error), []);
  const showBox = (box: EditorBox) => {
    setPage(box.page);
    setSelectedId(box.redactionId);
  };

  const hiddenOn = (number: number, geometry: PageGeometry) =>
    showHidden && <HiddenOverlay geometry={geometry} regions={hiddenRegions.filter((region) => region.page === number)} />;
  const overlay = (geometry: PageGeometry) => (
    <>
      <RedactionOverlay geometry={geometry} tool={tool} boxes={pageBoxes} suggestions={pageSuggestions} selectedId={selectedId} onSelect={setSelectedId} onDraw={onDraw} />
      {hiddenOn(page, geometry)}
    </>
  );
  const overlayFor = (number: number) => (geometry: PageGeometry) => (
    <>
    <RedactionOverlay
      geometry={geometry}
      tool={tool}
      boxes={boxesOf(number)}
      suggestions={suggestions.filter((box) => box.page === number)}
      selectedId={selectedId}
      onSelect={setSelectedId}
      onDraw={(shape) => onDraw(shape, number)}
    />
    {hiddenOn(number, geometry)}
    </>
  );

  const backHref = caseId ? `#/cases/${caseId}` : meta.data ? `#/cases/${meta.data.case_id}` : '#/cases';
  const notices = Object.values(editor.lockNotices);

  return (
    <section className="viewer" aria-label={meta.data ? `Document ${meta.data.fileName}` : 'Document'}>
      <ViewerToolbar
        title={meta.data?.fileName ?? 'Document'}
        backHref={backHref}
        page={page}
        pageCount={pageCount}
        onPage={goTo}
        scale={scale}
        zoomMode={zoom.mode}
        onZoom={zoomBy}
        onFit={() => setZoom({ mode: 'fit' })}
        tool={tool}
        onTool={setTool}
        unsaved={unsaved}
        dirtyLayers={dirty}
        saving={editor.saving}
        onSave={guard.guardedSave}
        canUndo={editor.canUndo}
        onUndo={editor.undo}
        canDelete={selectedId !== null}
        onDelete={removeSelected}
        extra={
          <>
            {pdf && (
              <button type="button" className={continuous ? 'button small icon active' : 'button small icon'} aria-pressed={continuous} onClick={() => setContinuous((value) => !value)} aria-label="Continuous" title="Continuous: every page in one scrolling column">
                {ICONS.continuous}
              </button>
            )}
            {pdf && hiddenRegions.length > 0 && (
              <button
                type="button"
                className={showHidden ? 'button small icon active' : 'button small icon'}
                aria-pressed={showHidden}
                onClick={() => setShowHidden((value) => !value)}
                aria-label={`Show hidden content (${hiddenRegions.length})`}
                title={`Show hidden content (${hiddenRegions.length}): outline and list the text in this file that a viewer does not show (releases leave it out)`}
                data-testid="show-hidden-content"
              >
                {ICONS.hidden}
                <span className="icon-count">{hiddenRegions.length}</span>
              </button>
            )}
            {(pdf || image) && (
              <button type="button" className={preview ? 'button small active' : 'button small'} aria-pressed={preview} onClick={() => setPreview((value) => !value)} title="Show this page as the export will release it">
                Preview as released
              </button>
            )}
          </>
        }
      />
      <div className="viewer-messages">
        <ErrorBanner error={meta.error ?? pdfError} onRetry={meta.error ? meta.reload : undefined} />
        <ErrorBanner error={editor.loadError} onRetry={() => void editor.reload()} />
        {tool === 'words' && (wordNote ?? (pageWords.missing ? 'The words of this document could not be read; run OCR first.' : null)) && (
          <div className="banner banner-warning" role="status" data-testid="word-note">
            <span className="banner-text">{wordNote ?? 'The words of this document could not be read; run OCR first.'}</span>
          </div>
        )}
        {showHidden && pdf && hiddenRegions.length > 0 && <HiddenContentPanel regions={hiddenRegions} page={page} onShow={goTo} />}
        <ErrorBanner error={editor.error} onDismiss={editor.clearError} onRetry={unsaved > 0 ? () => void editor.save() : undefined} />
        {!preview && caseContext.withheldAs(page) && (
          <div className="banner banner-warning" role="status" data-testid="withheld-note">
            <span className="banner-text">Page {page} is withheld in full under {caseContext.withheldAs(page)}: the requester gets a placeholder page instead of it.</span>
          </div>
        )}
        {notices.map((notice) => (
          <div key={notice.layer} className="banner banner-warning" role="alert" data-testid="lock-notice">
            <span className="banner-text">
              Layer {notice.layer} is being edited by <strong>{notice.lockedByName}</strong>
              {notice.lockedBy !== notice.lockedByName && ` (${notice.lockedBy})`}
              {notice.expiresAt && ` until ${new Date(notice.expiresAt).toLocaleTimeString()}`}. Your changes are kept; save again when they are done.
            </span>
            <button type="button" className="button small" onClick={() => void editor.save()}>
              Try again
            </button>
            <button type="button" className="button small ghost" aria-label="Dismiss message" onClick={() => editor.dismissLockNotice(notice.layer)}>
              ×
            </button>
          </div>
        ))}
      </div>
      <div className="viewer-body">
        {pdf && <Thumbnails pdf={pdf} current={page} marked={markedPages} withheldAs={caseContext.withheldAs} onPick={goTo} />}
        <div className="stage" ref={stage} tabIndex={0} role="region" aria-label="Page view">
          {meta.data && locked && (
            <div className="banner banner-warning stage-note" data-testid="password-prompt">
              <PasswordForm document={meta.data} onUnlocked={(unlocked) => meta.setData(unlocked)} />
            </div>
          )}
          {meta.data && !viewable && (
            <p className="muted stage-note">
              The viewer shows PDF, PNG, JPEG and TIFF documents. This {meta.data.document_type} file can be processed and exported from the case.
            </p>
          )}
          {tiffRefusal && (
            <p className="muted stage-note" data-testid="tiff-refused">
              The viewer cannot show this TIFF file: {tiffRefusal}. Redactions cannot be drawn on it here; it can still be processed (OCR,
              detection) from the case.
            </p>
          )}
          {viewable && !locked && !pdf && !image && !pdfError && !tiffRefusal && <p className="muted stage-note">Opening the document…</p>}
          {preview && (pdf || image) && <PreviewView documentId={documentId} page={page} withheld={caseContext.withheldAs(page)} fitWidth={zoom.mode === 'fit' ? stageWidth - 48 : null} scale={scale} unsaved={unsaved} />}
          {!preview && pdf && continuous && (
            <ContinuousPages pdf={pdf} scale={scale} units={isTiff ? 'image' : 'pdf'} scroller={stage} page={page} onVisiblePage={setPage} overlayFor={overlayFor} onError={onPageError} />
          )}
          {!preview && pdf && !continuous && <PageView pdf={pdf} pageNumber={page} scale={scale} overlay={overlay} onError={onPageError} units={isTiff ? 'image' : 'pdf'} />}
          {!preview && image && <ImageView image={image} scale={scale} label={meta.data?.fileName ?? 'Image'} overlay={overlay} />}
        </div>
        <aside className="viewer-side" aria-label="Redaction tools">
          <div className="tabs" role="tablist" aria-label="Panels">
            {TABS.map((entry) => (
              <button
                key={entry.id}
                type="button"
                role="tab"
                id={`tab-${entry.id}`}
                aria-selected={tab === entry.id}
                aria-controls={`panel-${entry.id}`}
                tabIndex={tab === entry.id ? 0 : -1}
                className={tab === entry.id ? 'tab active' : 'tab'}
                onClick={() => setTab(entry.id)}
                onKeyDown={(event) => {
                  const index = TABS.findIndex((candidate) => candidate.id === tab);
                  const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
                  if (!delta) return;
                  event.preventDefault();
                  event.stopPropagation();
                  const next = TABS[(index + delta + TABS.length) % TABS.length]!;
                  setTab(next.id);
                  document.getElementById(`tab-${next.id}`)?.focus();
                }}
              >
                {entry.label}
                {entry.id === 'suggestions' && suggestions.length > 0 && <span className="count">{suggestions.length}</span>}
              </button>
            ))}
          </div>
          <div className="tab-panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
            {tab === 'redact' && (
              <>
                <LayerPicker value={choice} onChange={(value) => { setChoice(value); if (value.classification) setClassificationMissing(false); }} classificationMissing={classificationMissing} />
                <PageRedactions boxes={pageBoxes} page={page} selectedId={selectedId} onSelect={setSelectedId} onRemove={(id) => editor.remove(id)} />
                {pageCount !== null && pageCount > 0 && <PageRangeForm key={page} pageCount={pageCount} current={page} busy={rangeBusy} onRedact={(from, to) => void redactPages(from, to)} />}
              </>
            )}
            {tab === 'suggestions' && <SuggestionsPanel caseId={caseId ?? meta.data?.case_id ?? null} suggestions={suggestions} busy={editor.deciding} onDecide={(boxes, decision) => void editor.decide(boxes, decision)} onShow={showBox} />}
            {tab === 'text' && <OcrPanel documentId={documentId} page={page} />}
            {tab === 'summary' && <SummaryPanel documentId={documentId} />}
          </div>
        </aside>
      </div>
      {guard.dialog}
      {editor.conflict && <ConflictDialog conflict={editor.conflict} pendingChanges={unsaved} onClose={editor.dismissConflict} onReapply={() => void editor.reloadAndReapply()} />}
    </section>
  );
}

interface PageRedactionsProps {
  boxes: readonly (EditorBox & { unsaved: boolean })[];
  page: number;
  selectedId: string | null;
  onSelect: (id: string) => void;
  onRemove: (id: string) => void;
}

/** The redactions of the current page as a list: the keyboard way to find, select and remove them. */
function PageRedactions({ boxes, page, selectedId, onSelect, onRemove }: PageRedactionsProps) {
  const byLayer = (layer: Layer) => boxes.filter((box) => box.layer === layer);
  return (
    <div className="page-redactions">
      <h3>Redactions on page {page}</h3>
      {boxes.length === 0 && <p className="muted">None yet. Draw on the page with a tool from the toolbar.</p>}
      <ul aria-label={`Redactions on page ${page}`}>
        {LAYERS.flatMap((layer) =>
          byLayer(layer).map((box) => (
            <li key={box.redactionId} className={box.redactionId === selectedId ? 'selected' : undefined} data-redaction-id={box.redactionId}>
              <span className="swatch" style={{ background: LAYER_COLORS[layer] }} aria-hidden="true" />
              <button type="button" className="link" onClick={() => onSelect(box.redactionId)} aria-pressed={box.redactionId === selectedId}>
                {layer} {LAYER_INFO[layer].exemption} · {box.kind}
                {box.reason && <span className="muted"> · {box.reason}</span>}
              </button>
              {box.unsaved && <span className="tag-unsaved">unsaved</span>}
              <button type="button" className="button tiny ghost" onClick={() => onRemove(box.redactionId)} aria-label={`Remove ${layer} ${box.kind}`}>
                Remove
              </button>
            </li>
          )),
        )}
      </ul>
    </div>
  );
}
