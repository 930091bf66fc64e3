// What the desktop shell's preload hands the page (window.obscura); absent in a plain browser.
import type { ObscuraDesktopApi } from './api/types.js';

declare global {
  interface Window {
    readonly obscura?: ObscuraDesktopApi;
  }
}

export function desktopShell(): ObscuraDesktopApi | null {
  const api = window.obscura;
  return api && api.isDesktop === true ? api : null;
}
