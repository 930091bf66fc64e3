import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

// pdf.js builds a page's operator list twice when the page is both read (getOperatorList: every operator as the
// content has it) and drawn (render: a list of its own, some image operators merged for the canvas). The
// fidelity check reads both pages' lists (glyphs, the walk of changed.ts) and then draws them: it draws the list
// it read, so the list is built once a page and the tiles' skips index the very list drawn. Both pages of a
// comparison are drawn alike, from their read lists. This leans on pdf.js's internals (its per-intent state of a
// page); `test/unit/burn-in-display-list.test.ts` fails if they change.

const TRANSPARENCY = Symbol('transparency');

interface OperatorListState {
  fnArray: number[];
  argsArray: unknown[];
  lastChunk: boolean;
  separateAnnots: unknown;
}

interface IntentState {
  operatorList?: OperatorListState;
  displayReadyCapability?: { promise: Promise<boolean>; resolve(value: boolean): void; reject(reason: unknown): void };
  renderTasks?: Set<unknown>;
  [TRANSPARENCY]?: boolean;
}

interface PageInternals {
  _intentStates?: Map<string, IntentState>;
  _transport?: { getRenderingIntent(intent: string, annotationMode: number, storage?: null, isEditing?: boolean, isOpList?: boolean): { cacheKey: string } };
  _startRenderPage?: (transparency: boolean, cacheKey: string) => void;
}

/** Annotations drawn (pdf.js AnnotationMode.ENABLE), as every reading and rendering of the burn-in. */
const ANNOTATIONS_DRAWN = 1;

let recording = false;

/**
 * From now on keeps, with each operator list pdf.js builds, whether the page needs a transparency group: pdf.js
 * says so when it starts a list (its StartRenderPage message) and a rendering needs it. Installed once a thread,
 * on the first page opened (pdfjs.ts openPdf), before any list is built.
 */
export function recordTransparency(page: PDFPageProxy): void {
  if (recording) return;
  const proto = Object.getPrototypeOf(page) as PageInternals;
  const start = proto._startRenderPage;
  if (typeof start !== 'function') return;
  proto._startRenderPage = function (this: PageInternals, transparency: boolean, cacheKey: string) {
    const state = this._intentStates?.get(cacheKey);
    if (state) state[TRANSPARENCY] = transparency;
    start.call(this, transparency, cacheKey);
  };
  recording = true;
}

/**
 * Makes the page's next rendering (display, annotations drawn) draw the operator list getOperatorList built,
 * instead of building one of its own. False when that list is not complete (or the page was drawn already).
 */
export function drawReadList(page: PDFPageProxy): boolean {
  const internals = page as unknown as PageInternals;
  const states = internals._intentStates;
  const transport = internals._transport;
  if (!states || !transport) return false;
  const read = states.get(transport.getRenderingIntent('display', ANNOTATIONS_DRAWN, null, false, true).cacheKey);
  const drawKey = transport.getRenderingIntent('display', ANNOTATIONS_DRAWN).cacheKey;
  const transparency = read?.[TRANSPARENCY];
  if (!read?.operatorList?.lastChunk || typeof transparency !== 'boolean' || states.has(drawKey)) return false;
  // Settled already: render() waits on its promise; pdf.js may still call resolve or reject (no effect then).
  const ready = { promise: Promise.resolve(transparency), resolve: () => undefined, reject: () => undefined };
  // What render() finds when it has built a list itself: ready, complete, no stream left to read.
  const state: IntentState = Object.create(null) as IntentState;
  state.displayReadyCapability = ready;
  state.operatorList = read.operatorList;
  state.renderTasks = new Set();
  states.set(drawKey, state);
  return true;
}
