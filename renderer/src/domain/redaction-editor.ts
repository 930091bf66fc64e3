// The viewer's redaction state as a pure model (tested under Node): what the server has, per-layer versions,
// and the user's unsaved additions and removals. Saves go per layer; a failed save keeps every change.
import type { AppRecord, LayerVersion, SaveItem, Point } from '../api/redaction-types.js';
import type { ClassificationType, Layer, RedactionKind, RedactionState } from '../api/types.js';
import type { Box } from './geometry.js';

export interface EditorBox {
  redactionId: string;
  /** The store's numeric id (review decisions use it); null until saved. */
  rowId: string | null;
  page: number;
  kind: RedactionKind;
  layer: Layer;
  box: Box;
  points: Point[];
  reason: string | null;
  classification: ClassificationType | null;
  state: RedactionState;
  pendingReason: Record<string, unknown> | null;
}

export interface EditorState {
  saved: readonly EditorBox[];
  versions: Readonly<Partial<Record<Layer, LayerVersion>>>;
  added: readonly EditorBox[];
  /** redaction_ids of saved boxes the user removed. */
  removed: readonly string[];
}

export const EMPTY_EDITOR: EditorState = { saved: [], versions: {}, added: [], removed: [] };

function asClassification(value: string | null): ClassificationType | null {
  return value === 'confidential' || value === 'secret' || value === 'top_secret' ? value : null;
}

export function fromRecord(record: AppRecord): EditorBox {
  const image = record.record_type === 'image';
  const box = image
    ? { x1: record.image_x1 ?? 0, y1: record.image_y1 ?? 0, x2: record.image_x2 ?? 0, y2: record.image_y2 ?? 0 }
    : { x1: record.pdf_x1 ?? 0, y1: record.pdf_y1 ?? 0, x2: record.pdf_x2 ?? 0, y2: record.pdf_y2 ?? 0 };
  return {
    redactionId: record.redaction_id,
    rowId: record._id,
    page: record.page_number,
    kind: record.redaction_type,
    layer: record.layer,
    box,
    points: (image ? record.image_polygon_points : record.pdf_polygon_points) ?? [],
    reason: record.redaction_reason,
    classification: asClassification(record.classification_type),
    state: record.state,
    pendingReason: record.pending_reason,
  };
}

export function fromServer(records: readonly AppRecord[], versions: Partial<Record<Layer, LayerVersion>>): EditorState {
  return { saved: records.map(fromRecord), versions: { ...versions }, added: [], removed: [] };
}

export function addBox(state: EditorState, box: EditorBox): EditorState {
  return { ...state, added: [...state.added, box] };
}

/** Removes an unsaved box outright, or marks a saved one for deletion at the next save of its layer. */
export function removeBox(state: EditorState, redactionId: string): EditorState {
  if (state.added.some((box) => box.redactionId === redactionId)) {
    return { ...state, added: state.added.filter((box) => box.redactionId !== redactionId) };
  }
  if (!state.saved.some((box) => box.redactionId === redactionId) || state.removed.includes(redactionId)) return state;
  return { ...state, removed: [...state.removed, redactionId] };
}

/** Boxes drawn by people (saved and not removed, plus unsaved), i.e. what will be burned in. */
export function drawnBoxes(state: EditorState): EditorBox[] {
  const removed = new Set(state.removed);
  return [...state.saved.filter((box) => box.state === 'accepted' && !removed.has(box.redactionId)), ...state.added];
}

/** Staged suggestions (detection), shown apart until someone accepts or rejects them. */
export function pendingSuggestions(state: EditorState): EditorBox[] {
  return state.saved.filter((box) => box.state === 'pending');
}

/** What a suggestion was found as (pending_reason.entity), e.g. "ssn"; "suggestion" when unknown. */
export function suggestionKind(box: EditorBox): string {
  const entity = box.pendingReason?.entity;
  return typeof entity === 'string' && entity ? entity : 'suggestion';
}

export function groupSuggestions(boxes: readonly EditorBox[]): Map<string, EditorBox[]> {
  const groups = new Map<string, EditorBox[]>();
  for (const box of boxes) {
    const kind = suggestionKind(box);
    groups.set(kind, [...(groups.get(kind) ?? []), box]);
  }
  return groups;
}

export function isSavedBox(state: EditorState, redactionId: string): boolean {
  return state.saved.some((box) => box.redactionId === redactionId);
}

export function dirtyLayers(state: EditorState): Layer[] {
  const layers = new Set<Layer>(state.added.map((box) => box.layer));
  for (const id of state.removed) {
    const box = state.saved.find((candidate) => candidate.redactionId === id);
    if (box) layers.add(box.layer);
  }
  return [...layers].sort();
}

export function changeCount(state: EditorState): number {
  return state.added.length + state.removed.length;
}

export interface LayerChanges {
  layer: Layer;
  /** The version the user's changes are based on (null before the layer's first save). */
  baseVersionId: string | null;
  additions: EditorBox[];
  deletions: string[];
}

export function layerChanges(state: EditorState, layer: Layer): LayerChanges {
  const savedIds = new Set(state.saved.filter((box) => box.layer === layer).map((box) => box.redactionId));
  return {
    layer,
    baseVersionId: state.versions[layer]?.version_id ?? null,
    additions: state.added.filter((box) => box.layer === layer),
    deletions: state.removed.filter((id) => savedIds.has(id)),
  };
}

/** The save item of a box: PDF points for PDFs, image pixels for images. */
export function toSaveItem(box: EditorBox, units: 'pdf' | 'image' = 'pdf'): SaveItem {
  const common = {
    redaction_id: box.redactionId,
    page_number: box.page,
    redaction_type: box.kind,
    layer: box.layer,
    redaction_reason: box.reason,
    classification_type: box.layer === 'B1' ? box.classification : null,
  };
  const points = box.kind === 'rectangle' ? [] : box.points;
  if (units === 'image') {
    return { ...common, image_x1: box.box.x1, image_y1: box.box.y1, image_x2: box.box.x2, image_y2: box.box.y2, image_polygon_points: points };
  }
  return { ...common, pdf_x1: box.box.x1, pdf_y1: box.box.y1, pdf_x2: box.box.x2, pdf_y2: box.box.y2, pdf_polygon_points: points };
}

/**
 * Takes in what the server now has for `layers` (all layers when omitted), keeping the user's unsaved work:
 * additions stay, removals stay for boxes that still exist. `settled` layers were just saved, so their local
 * changes are dropped.
 */
export function rebase(
  state: EditorState,
  records: readonly AppRecord[],
  versions: Partial<Record<Layer, LayerVersion>>,
  options: { layers?: readonly Layer[]; settled?: readonly Layer[] } = {},
): EditorState {
  const inScope = (layer: Layer) => !options.layers || options.layers.includes(layer);
  const settled = new Set(options.settled ?? []);
  const fresh = records.map(fromRecord).filter((box) => inScope(box.layer));
  const saved = [...state.saved.filter((box) => !inScope(box.layer)), ...fresh];
  const nextVersions: Partial<Record<Layer, LayerVersion>> = { ...state.versions };
  for (const layer of Object.keys(nextVersions) as Layer[]) if (inScope(layer)) delete nextVersions[layer];
  for (const [layer, version] of Object.entries(versions) as [Layer, LayerVersion][]) if (inScope(layer)) nextVersions[layer] = version;
  const savedById = new Map(saved.map((box) => [box.redactionId, box]));
  return {
    saved,
    versions: nextVersions,
    added: state.added.filter((box) => !settled.has(box.layer) && !savedById.has(box.redactionId)),
    removed: state.removed.filter((id) => {
      const box = savedById.get(id);
      return box !== undefined && !settled.has(box.layer);
    }),
  };
}

export function newBox(fields: {
  redactionId: string;
  page: number;
  kind: RedactionKind;
  layer: Layer;
  box: Box;
  points?: Point[];
  reason: string | null;
  classification: ClassificationType | null;
}): EditorBox {
  return {
    redactionId: fields.redactionId,
    rowId: null,
    page: fields.page,
    kind: fields.kind,
    layer: fields.layer,
    box: fields.box,
    points: fields.points ?? [],
    reason: fields.reason,
    classification: fields.layer === 'B1' ? fields.classification : null,
    state: 'accepted',
    pendingReason: null,
  };
}
