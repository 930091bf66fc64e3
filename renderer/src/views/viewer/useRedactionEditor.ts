// The viewer's redactions: loading, local edits with undo, per-layer saves with versions, advisory layer locks,
// and review decisions on suggestions. A failed request never drops a change: it stays unsaved on screen.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/errors.js';
import { newIdempotencyKey } from '../../api/http.js';
import { deleteBoxes, getLayer, listRedactions, lockLayer, saveLayer, submitReviewDecisions, unlockLayer } from '../../api/redactions.js';
import type { Layer } from '../../api/types.js';
import {
  EMPTY_EDITOR,
  addBox,
  dirtyLayers,
  fromServer,
  layerChanges,
  rebase,
  removeBox,
  toSaveItem,
  type EditorBox,
  type EditorState,
} from '../../domain/redaction-editor.js';

export interface LockNotice {
  layer: Layer;
  lockedBy: string;
  lockedByName: string;
  expiresAt: string | null;
}

export interface Conflict {
  layer: Layer;
  currentVersion: number | null;
}

const HEARTBEAT_MS = 60_000;
const UNDO_DEPTH = 100;

function lockNoticeFrom(error: ApiError, layer: Layer): LockNotice {
  const body = error.body ?? {};
  const nested = (typeof body.error === 'object' && body.error !== null ? body.error : {}) as Record<string, unknown>;
  const pick = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : typeof nested[name] === 'string' ? (nested[name] as string) : null);
  const noticeLayer = pick('layer');
  return {
    layer: (noticeLayer as Layer | null) ?? layer,
    lockedBy: pick('locked_by') ?? 'another user',
    lockedByName: pick('locked_by_name') ?? pick('locked_by') ?? 'another user',
    expiresAt: pick('expires_at'),
  };
}

function conflictFrom(error: ApiError, layer: Layer): Conflict {
  const current = error.body?.currentVersion as { version?: number } | null | undefined;
  return { layer, currentVersion: typeof current?.version === 'number' ? current.version : null };
}

class LayerLockedError extends Error {
  constructor(readonly notice: LockNotice) {
    super(`layer ${notice.layer} is being edited by ${notice.lockedByName}`);
  }
}

class LayerConflictError extends Error {
  constructor(readonly conflict: Conflict) {
    super(`layer ${conflict.layer} was changed by someone else`);
  }
}

/** `units`: how the document's boxes are measured (PDF points, or pixels of an image). */
export function useRedactionEditor(documentId: string, units: 'pdf' | 'image') {
  const unitsRef = useRef(units);
  unitsRef.current = units;
  const [state, setStateValue] = useState<EditorState>(EMPTY_EDITOR);
  const stateRef = useRef(state);
  const history = useRef<EditorState[]>([]);
  const [undoDepth, setUndoDepth] = useState(0);
  const [loaded, setLoaded] = useState(false);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [lockNotices, setLockNotices] = useState<Partial<Record<Layer, LockNotice>>>({});
  const heldLocks = useRef(new Set<Layer>());

  const setState = useCallback((next: EditorState) => {
    stateRef.current = next;
    setStateValue(next);
  }, []);

  /** Takes in the server's current boxes; `settled` layers drop their local changes (just saved). */
  const refresh = useCallback(
    async (settled: Layer[] = []) => {
      const list = await listRedactions(documentId);
      setState(rebase(stateRef.current, list.redactions, list.versions, { settled }));
    },
    [documentId, setState],
  );

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      const list = await listRedactions(documentId);
      setState(loaded ? rebase(stateRef.current, list.redactions, list.versions) : fromServer(list.redactions, list.versions));
      setLoaded(true);
    } catch (failure) {
      setLoadError(failure);
    }
  }, [documentId, loaded, setState]);

  useEffect(() => {
    void load();
    // Only on open; later loads keep local changes through rebase.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [documentId]);

  const forgetNotice = (layer: Layer) =>
    setLockNotices((previous) => {
      if (!previous[layer]) return previous;
      const next = { ...previous };
      delete next[layer];
      return next;
    });

  /** Takes the layer's advisory lock when the user starts changing it, so others see who is editing. */
  const ensureLock = useCallback(
    async (layer: Layer) => {
      if (heldLocks.current.has(layer)) return;
      heldLocks.current.add(layer);
      try {
        await lockLayer(documentId, layer);
        forgetNotice(layer);
      } catch (failure) {
        heldLocks.current.delete(layer);
        if (failure instanceof ApiError && failure.status === 423) setLockNotices((previous) => ({ ...previous, [layer]: lockNoticeFrom(failure, layer) }));
      }
    },
    [documentId],
  );

  const releaseLock = useCallback(
    (layer: Layer) => {
      if (!heldLocks.current.delete(layer)) return;
      unlockLayer(documentId, layer).catch(() => undefined);
    },
    [documentId],
  );

  // Heartbeat held locks; release them all when the viewer closes.
  useEffect(() => {
    const timer = window.setInterval(() => {
      for (const layer of heldLocks.current) {
        lockLayer(documentId, layer, true).catch(() => {
          heldLocks.current.delete(layer);
          void ensureLock(layer);
        });
      }
    }, HEARTBEAT_MS);
    const releaseAll = () => {
      for (const layer of heldLocks.current) unlockLayer(documentId, layer, true).catch(() => undefined);
      heldLocks.current.clear();
    };
    window.addEventListener('pagehide', releaseAll);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('pagehide', releaseAll);
      releaseAll();
    };
  }, [documentId, ensureLock]);

  const change = useCallback(
    (next: EditorState, layer: Layer) => {
      history.current = [...history.current.slice(-UNDO_DEPTH + 1), stateRef.current];
      setUndoDepth(history.current.length);
      setState(next);
      void ensureLock(layer);
    },
    [ensureLock, setState],
  );

  const add = useCallback((box: EditorBox) => change(addBox(stateRef.current, box), box.layer), [change]);

  const remove = useCallback(
    (redactionId: string) => {
      const box = [...stateRef.current.added, ...stateRef.current.saved].find((candidate) => candidate.redactionId === redactionId);
      if (box) change(removeBox(stateRef.current, redactionId), box.layer);
    },
    [change],
  );

  /** Undoes the last local edit (never a save). */
  const undo = useCallback(() => {
    const last = history.current[history.current.length - 1];
    if (!last) return;
    history.current = history.current.slice(0, -1);
    setUndoDepth(history.current.length);
    // Keep what the server has now; only the local additions and removals go back.
    const saved = stateRef.current.saved;
    setState({
      ...stateRef.current,
      added: last.added.filter((box) => !saved.some((candidate) => candidate.redactionId === box.redactionId)),
      removed: last.removed.filter((id) => saved.some((box) => box.redactionId === id)),
    });
  }, [setState]);

  const saveOne = useCallback(
    async (layer: Layer) => {
      const changes = layerChanges(stateRef.current, layer);
      let base = changes.baseVersionId;
      try {
        if (changes.additions.length > 0) {
          const answer = await saveLayer(documentId, changes.additions.map((box) => toSaveItem(box, unitsRef.current)), base);
          base = answer.version_id;
        } else if (changes.deletions.length > 0) {
          // Deletes report per box; ask first so a lock or a newer version gets the same answer as a save.
          const current = await getLayer(documentId, layer);
          if (current.lock) throw new LayerLockedError({ layer, lockedBy: current.lock.locked_by, lockedByName: current.lock.locked_by_name, expiresAt: current.lock.expires_at });
          if (current.version_id !== base) throw new LayerConflictError({ layer, currentVersion: current.version });
        }
        if (changes.deletions.length > 0) {
          const answer = await deleteBoxes(changes.deletions.map((redactionId) => ({ redactionId, versionId: base })));
          const failed = answer.results.find((result) => !result.success);
          if (failed) throw new Error(`some boxes of layer ${layer} could not be removed: ${failed.message}`);
        }
        forgetNotice(layer);
        await refresh([layer]);
        releaseLock(layer);
      } catch (failure) {
        // Whatever did go through is taken in; the rest stays as unsaved changes.
        await refresh().catch(() => undefined);
        if (failure instanceof ApiError && failure.status === 409 && failure.body && 'currentVersion' in failure.body) throw new LayerConflictError(conflictFrom(failure, layer));
        if (failure instanceof ApiError && failure.status === 423) throw new LayerLockedError(lockNoticeFrom(failure, layer));
        throw failure;
      }
    },
    [documentId, refresh, releaseLock],
  );

  /** Saves every layer with changes, one request (or two) per layer; stops at the first problem. */
  const save = useCallback(async () => {
    if (saving) return;
    setSaving(true);
    setError(null);
    try {
      for (const layer of dirtyLayers(stateRef.current)) await saveOne(layer);
      history.current = [];
      setUndoDepth(0);
    } catch (failure) {
      if (failure instanceof LayerConflictError) setConflict(failure.conflict);
      else if (failure instanceof LayerLockedError) setLockNotices((previous) => ({ ...previous, [failure.notice.layer]: failure.notice }));
      else setError(failure);
    } finally {
      setSaving(false);
    }
  }, [saveOne, saving]);

  /** 409: take the layer as it is now on the server, keep the user's changes on top, and save again. */
  const reloadAndReapply = useCallback(async () => {
    const current = conflict;
    if (!current) return;
    setConflict(null);
    setError(null);
    try {
      const layer = await getLayer(documentId, current.layer);
      const versions = layer.version_id ? { [current.layer]: { version_id: layer.version_id, version: layer.version } } : {};
      setState(rebase(stateRef.current, layer.redactions, versions, { layers: [current.layer] }));
    } catch (failure) {
      setError(failure);
      return;
    }
    await save();
  }, [conflict, documentId, save, setState]);

  const [deciding, setDeciding] = useState(false);
  /** Accept or reject suggestions (review decisions of the integration API), then take in the result. */
  const decide = useCallback(
    async (boxes: readonly EditorBox[], decision: 'accept' | 'reject') => {
      const rows = boxes.filter((box) => box.rowId !== null);
      if (rows.length === 0) return;
      setDeciding(true);
      setError(null);
      try {
        await submitReviewDecisions(documentId, rows.map((box) => ({ redactionRowId: box.rowId!, decision })), newIdempotencyKey());
        await refresh();
      } catch (failure) {
        if (failure instanceof ApiError && failure.status === 423) {
          const layer = rows[0]!.layer;
          setLockNotices((previous) => ({ ...previous, [layer]: lockNoticeFrom(failure, layer) }));
        } else setError(failure);
      } finally {
        setDeciding(false);
      }
    },
    [documentId, refresh],
  );

  return {
    state,
    loaded,
    loadError,
    reload: load,
    add,
    remove,
    undo,
    canUndo: undoDepth > 0,
    save,
    saving,
    error,
    clearError: () => setError(null),
    conflict,
    dismissConflict: () => setConflict(null),
    reloadAndReapply,
    lockNotices,
    dismissLockNotice: forgetNotice,
    decide,
    deciding,
  };
}

export type RedactionEditor = ReturnType<typeof useRedactionEditor>;
