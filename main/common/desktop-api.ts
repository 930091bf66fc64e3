/**
 * What the desktop shell's preload exposes to the renderer as `window.obscura`: read-only facts, nothing
 * callable that reaches the main process or Node. In a plain browser (`obscura serve`) it is absent.
 */
export interface ObscuraDesktopApi {
  readonly isDesktop: true;
  readonly version: string;
  /** The embedded server's origin, e.g. http://127.0.0.1:43121. */
  readonly baseUrl: string;
}

/** The name under which the preload exposes it on `window`. */
export const DESKTOP_API_GLOBAL = 'obscura';
