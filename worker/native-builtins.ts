// pdf.js's legacy build (pdf.mjs, and pdf.worker.mjs when a document is first opened) carries core-js, which
// replaces Array.prototype.push for the whole thread: V8 in Node 20 does not throw on `push()` (no arguments) to an array
// whose length is not writable, so core-js installs its own push, written in JavaScript and about 30 times slower than
// V8's (about a tenth of the export's CPU in a profile: pdf.js's operator lists, our glyph readers). This module,
// imported first by the worker's entry, keeps V8's push from before pdf.js loads; `restoreNativeBuiltins` puts it
// back once pdf.js (and its worker part) are loaded. Nothing here pushes onto an array with a read-only length.

const nativePush = Array.prototype.push;

/** Puts back V8's Array.prototype.push if pdf.js's core-js replaced it (a no-op when this module loaded late). */
export function restoreNativeBuiltins(): void {
  if (Array.prototype.push !== nativePush) Object.defineProperty(Array.prototype, 'push', { value: nativePush, writable: true, enumerable: false, configurable: true });
}
