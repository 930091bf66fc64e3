import { useEffect, useState, type ReactNode } from 'react';
import type { Layer } from '../../api/types.js';
import type { Tool } from './RedactionOverlay.js';

export const ZOOM_STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4];

const TOOLS: { id: Tool; label: string; key: string }[] = [
  { id: 'select', label: 'Select', key: 'V' },
  { id: 'rectangle', label: 'Rectangle', key: 'R' },
  { id: 'words', label: 'Words', key: 'T' },
  { id: 'polygon', label: 'Polygon', key: 'P' },
  { id: 'freehand', label: 'Freehand', key: 'F' },
  { id: 'full_page', label: 'Full page', key: 'G' },
];

interface Props {
  title: string;
  backHref: string;
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
  scale: number;
  zoomMode: 'fit' | 'scale';
  onZoom: (direction: 1 | -1) => void;
  onFit: () => void;
  tool: Tool;
  onTool: (tool: Tool) => void;
  unsaved: number;
  dirtyLayers: Layer[];
  saving: boolean;
  onSave: () => void;
  canUndo: boolean;
  onUndo: () => void;
  canDelete: boolean;
  onDelete: () => void;
  /** View controls (continuous scroll, preview as released). */
  extra?: ReactNode;
}

export function ViewerToolbar(props: Props) {
  const [pageInput, setPageInput] = useState(String(props.page));
  useEffect(() => setPageInput(String(props.page)), [props.page]);

  return (
    <div className="viewer-toolbar" role="toolbar" aria-label="Viewer">
      <a className="button ghost small" href={props.backHref}>
        ‹ Case
      </a>
      <h1 className="viewer-title" title={props.title}>
        {props.title}
      </h1>
      <div className="toolbar-group" aria-label="Pages">
        <button type="button" className="button small" onClick={() => props.onPage(props.page - 1)} disabled={props.page <= 1} aria-label="Previous page" title="Previous page (PageUp)">
          ‹
        </button>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const target = Number(pageInput);
            if (Number.isInteger(target)) props.onPage(target);
          }}
        >
          <label className="page-input">
            <span className="visually-hidden">Page number</span>
            <input value={pageInput} onChange={(event) => setPageInput(event.target.value)} inputMode="numeric" size={3} aria-label="Page number" />
          </label>
        </form>
        <span className="muted">of {props.pageCount || '…'}</span>
        <button type="button" className="button small" onClick={() => props.onPage(props.page + 1)} disabled={props.page >= props.pageCount} aria-label="Next page" title="Next page (PageDown)">
          ›
        </button>
      </div>
      <div className="toolbar-group" aria-label="Zoom">
        <button type="button" className="button small" onClick={() => props.onZoom(-1)} aria-label="Zoom out" title="Zoom out (−)">
          −
        </button>
        <span className="zoom-value" aria-live="polite">
          {Math.round(props.scale * 100)}%
        </span>
        <button type="button" className="button small" onClick={() => props.onZoom(1)} aria-label="Zoom in" title="Zoom in (+)">
          +
        </button>
        <button type="button" className={props.zoomMode === 'fit' ? 'button small active' : 'button small'} onClick={props.onFit} title="Fit width (0)">
          Fit
        </button>
      </div>
      <div className="toolbar-group" role="radiogroup" aria-label="Drawing tool">
        {TOOLS.map((tool) => (
          <button
            key={tool.id}
            type="button"
            role="radio"
            aria-checked={props.tool === tool.id}
            className={props.tool === tool.id ? 'button small active' : 'button small'}
            onClick={() => props.onTool(tool.id)}
            title={`${tool.label} (${tool.key})`}
            data-tool={tool.id}
          >
            {tool.label}
          </button>
        ))}
      </div>
      <div className="toolbar-group">
        <button type="button" className="button small" onClick={props.onDelete} disabled={!props.canDelete} title="Remove the selected box (Delete)">
          Remove
        </button>
        <button type="button" className="button small" onClick={props.onUndo} disabled={!props.canUndo} title="Undo (Ctrl+Z)">
          Undo
        </button>
        {/* Save stays on the first row with the tools; only the view toggles may wrap on a narrow window. */}
        <button type="button" className="button primary small" onClick={props.onSave} disabled={props.saving || props.unsaved === 0} title="Save (Ctrl+S)">
          Save
        </button>
        <span className="save-state" aria-live="polite" data-testid="save-state">
          {props.saving ? 'Saving…' : props.unsaved > 0 ? `${props.unsaved} unsaved change${props.unsaved === 1 ? '' : 's'} (${props.dirtyLayers.join(', ')})` : 'All changes saved'}
        </span>
      </div>
      <div className="spacer" />
      {props.extra && <div className="toolbar-group" aria-label="View">{props.extra}</div>}
    </div>
  );
}
