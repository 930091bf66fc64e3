import { listDocumentJobs } from '../../api/jobs.js';
import type { HiddenContentKind as Kind, Job, ScanResult } from '../../api/types.js';
import { viewRect } from '../../domain/geometry.js';
import { useLoad } from '../../hooks/useLoad.js';
import type { PageGeometry } from './PageView.js';

// Hidden content (issue 25): text the source holds but a viewer does not show, as the latest scan found it. On
// the clerk's request the viewer outlines each region on its page and lists what it says; exports leave it out.

/** Each kind in plain words. */
export const HIDDEN_KIND_WORDS: Record<Kind, string> = {
  'optional-content': 'Layer that is off',
  invisible: 'Invisible text',
  'outside-crop': 'Outside the visible page',
  covered: 'Covered by an image or shape',
  clipped: 'Cut away by a clipping edge',
};

export interface HiddenRegion {
  page: number;
  kind: Kind;
  glyphs: number;
  box: { x1: number; y1: number; x2: number; y2: number };
  /** The hidden text; null when the scan predates recording it. */
  text: string | null;
}

/** The hidden regions of the latest completed scan of a document (none when it has no scan or found none). */
export function hiddenRegionsOf(jobs: readonly Job[]): HiddenRegion[] {
  const scans = jobs.filter((job) => job.kind === 'scan' && job.status === 'completed' && job.result);
  const latest = scans.reduce<Job | null>((best, job) => (!best || (job.finished_at ?? job.created_at) > (best.finished_at ?? best.created_at) ? job : best), null);
  const pages = (latest?.result as unknown as ScanResult | null)?.pdf?.pages ?? [];
  return pages.flatMap((page) =>
    (page.hidden_content ?? []).map((entry) => ({
      page: page.page,
      kind: entry.kind,
      glyphs: entry.glyphs,
      box: { x1: entry.x1, y1: entry.y1, x2: entry.x2, y2: entry.y2 },
      text: typeof entry.text === 'string' && entry.text !== '' ? entry.text : null,
    })),
  );
}

export function useHiddenContent(documentId: string, enabled: boolean): HiddenRegion[] {
  const jobs = useLoad((signal) => (enabled ? listDocumentJobs(documentId, signal) : Promise.resolve([])), [documentId, enabled]);
  return jobs.data ? hiddenRegionsOf(jobs.data) : [];
}

/** Outlines of a page's hidden regions, labelled with their kind; it never takes the pointer from the drawing tools. */
export function HiddenOverlay({ geometry, regions }: { geometry: PageGeometry; regions: readonly HiddenRegion[] }) {
  if (regions.length === 0) return null;
  return (
    <svg className="hidden-overlay" width={geometry.width} height={geometry.height} aria-hidden="true" data-testid="hidden-overlay">
      {regions.map((region, index) => {
        const rect = viewRect(geometry.transform, region.box);
        // Text outside the visible page is outlined at the page's edge it lies beyond.
        const x = Math.max(0, Math.min(geometry.width - 4, rect.x));
        const y = Math.max(0, Math.min(geometry.height - 4, rect.y));
        const width = Math.max(4, Math.min(geometry.width - x, rect.x + rect.width - x));
        const height = Math.max(4, Math.min(geometry.height - y, rect.y + rect.height - y));
        return (
          <g key={index} className={`hidden-region hidden-${region.kind}`} data-kind={region.kind}>
            <rect x={x} y={y} width={width} height={height} />
            <text x={x + 2} y={y > 14 ? y - 4 : y + height + 12}>
              {HIDDEN_KIND_WORDS[region.kind]}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** Every hidden region of the document with its text; a region's page opens from its button. */
export function HiddenContentPanel({ regions, page, onShow }: { regions: readonly HiddenRegion[]; page: number; onShow: (page: number) => void }) {
  return (
    <section className="hidden-content-panel" aria-labelledby="hidden-content-heading" data-testid="hidden-content-panel">
      <h3 id="hidden-content-heading">Hidden content found by the scan</h3>
      <p className="muted">Text in the file that a viewer does not show. Every release leaves it out.</p>
      <ul>
        {regions.map((region, index) => (
          <li key={index} className={region.page === page ? 'current' : undefined}>
            <button type="button" className="link" onClick={() => onShow(region.page)} aria-current={region.page === page ? 'page' : undefined}>
              Page {region.page}: {HIDDEN_KIND_WORDS[region.kind]} ({region.glyphs} character{region.glyphs === 1 ? '' : 's'})
            </button>
            {region.text ? <blockquote className="hidden-text">{region.text}</blockquote> : <p className="muted">Run the scan again to read this text here.</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}
