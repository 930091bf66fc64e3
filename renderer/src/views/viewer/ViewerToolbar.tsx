import { useEffect, useState, type ReactNode } from 'react';
import type { Layer } from '../../api/types.js';
import type { Tool } from './RedactionOverlay.js';
import { ICONS } from './ToolbarIcons.js';

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
  /** View controls (continuous scroll, hidden content, preview as released). */
  extra?: ReactNode;
}

/**
 * One row at 1280 px and wider (issue 27): the drawing tools, Remove, Undo and the rarer view toggles are
 * compact icon buttons whose accessible name is their word and whose tooltip adds the shortcut; Save and
 * "Preview as released" keep their words. The title and the save state give way (ellipsis) before anything wraps.
 */
export function ViewerToolbar(props: Props) {
  const [pageInput, setPageInput] = useState(String(props.page));
  useEffect(() => setPageInput(String(props.page)), [props.page]);
  const saveState = props.saving ? 'Saving…' : props.unsaved > 0 ? `${props.unsaved} unsaved change${props.unsaved === 1 ? '' : 's'} (${props.dirtyLayers.join(', ')})` : 'All changes saved';

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
            aria-label={tool.label}
            className={props.tool === tool.id ? 'button small icon active' : 'button small icon'}
            onClick={() => props.onTool(tool.id)}
            title={`${tool.label} (${tool.key})`}
            data-tool={tool.id}
          >
            {ICONS[tool.id]}
          </button>
        ))}
      </div>
      <div className="toolbar-group toolbar-edit">
        <button type="button" className="button small icon" onClick={props.onDelete} disabled={!props.canDelete} aria-label="Remove" title="Remove the selected box (Delete)">
          {ICONS.remove}
        </button>
        <button type="button" className="button small icon" onClick={props.onUndo} disabled={!props.canUndo} aria-label="Undo" title="Undo (Ctrl+Z)">
          {ICONS.undo}
        </button>
        <button type="button" className="button primary small" onClick={props.onSave} disabled={props.saving || props.unsaved === 0} title="Save (Ctrl+S)">
          Save
        </button>
        <span className="save-state" aria-live="polite" data-testid="save-state" title={saveState}>
          {saveState}
        </span>
      </div>
      <div className="spacer" />
      {props.extra && <div className="toolbar-group" aria-label="View">{props.extra}</div>}
    </div>
  );
}
