// The desktop shell's security rules as plain functions: no Electron import, so they run (and are tested)
// under Node. electron-main.ts only wires them to Electron's events.
import type { BrowserWindowConstructorOptions } from './electron-types.js';

/** Arguments the main process hands the sandboxed preload through webPreferences.additionalArguments. */
export const PRELOAD_ARG_BASE_URL = '--obscura-base-url=';
export const PRELOAD_ARG_VERSION = '--obscura-version=';

/** The name under which the preload exposes its API on `window`. */
export { DESKTOP_API_GLOBAL as PRELOAD_GLOBAL } from '../common/desktop-api.js';

/**
 * The only origin the window may show: the embedded server's loopback origin, e.g. http://127.0.0.1:43121.
 * Throws for anything else, so a mistake cannot widen what the window trusts.
 */
export function appOriginOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || !['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname) || !url.port) {
    throw new Error(`the desktop shell only loads its embedded loopback server, not ${baseUrl}`);
  }
  return url.origin;
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** True when `url` is a page of the app itself: same scheme, host and port as the embedded server. */
export function isAppUrl(url: string, appOrigin: string): boolean {
  const parsed = parse(url);
  return parsed !== null && parsed.origin === appOrigin && parsed.username === '' && parsed.password === '';
}

/** will-navigate / will-redirect / will-frame-navigate: stay inside the app's origin. */
export function decideNavigation(url: string, appOrigin: string): 'allow' | 'deny' {
  return isAppUrl(url, appOrigin) ? 'allow' : 'deny';
}

const MAX_EXTERNAL_URL_LENGTH = 2048;

function isLoopbackOrLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    host === '0.0.0.0' ||
    host === '::' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    /^0x|^\d+$/.test(host) // numeric shorthands such as http://2130706433/
  );
}

/**
 * Whether a link may be handed to the system browser: http(s) only (no file:, javascript:, custom
 * schemes that launch local programs), no embedded credentials, a real host that is not this machine,
 * and a sane length.
 */
export function isSafeExternalUrl(url: string): boolean {
  if (url.length > MAX_EXTERNAL_URL_LENGTH) return false;
  const parsed = parse(url);
  if (!parsed) return false;
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  if (!parsed.hostname || isLoopbackOrLocalHost(parsed.hostname)) return false;
  return true;
}

export interface WindowOpenDecision {
  /** Electron never opens a second app window. */
  action: 'deny';
  /** The URL to pass to shell.openExternal, when the link is a safe external one. */
  openExternally: string | null;
}

/** setWindowOpenHandler: never a new Electron window; safe external links go to the system browser. */
export function decideWindowOpen(url: string, appOrigin: string): WindowOpenDecision {
  if (isAppUrl(url, appOrigin)) return { action: 'deny', openExternally: null };
  return { action: 'deny', openExternally: isSafeExternalUrl(url) ? new URL(url).href : null };
}

/**
 * Permissions granted to the app's own pages; everything else (camera, microphone, geolocation,
 * notifications, midi, hid, serial, usb, display capture, pointer lock, openExternal, …) is denied.
 */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write', 'fullscreen']);

/** Permission request and check handlers: deny by default, allow the short list only for the app origin. */
export function decidePermission(permission: string, requestingUrl: string | undefined, appOrigin: string): boolean {
  if (!ALLOWED_PERMISSIONS.has(permission)) return false;
  return requestingUrl !== undefined && isAppUrl(requestingUrl, appOrigin);
}

/**
 * Content-Security-Policy added to every response of the app origin. Scripts only from the app itself
 * (no inline, no eval; 'wasm-unsafe-eval' only lets pdf.js compile its bundled WebAssembly image decoders,
 * it does not allow eval of JavaScript); workers from the app or blob: (pdf.js); images from the app, data: and blob:
 * (page renders and thumbnails); inline style attributes allowed for layout; no plugins, no framing,
 * no base-URI tricks, forms only to the app.
 */
export function contentSecurityPolicy(): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "media-src 'self' blob:",
    "object-src 'none'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** Response headers with the CSP set (replacing any the server sent, whatever its header name case). */
export function withContentSecurityPolicy(headers: Record<string, string[]> | undefined): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'content-security-policy') result[name] = value;
  }
  result['Content-Security-Policy'] = [contentSecurityPolicy()];
  return result;
}

export interface WindowOptionsInput {
  /** Absolute path of the compiled preload (preload.cjs). */
  preloadPath: string;
  baseUrl: string;
  version: string;
  iconPath?: string;
  bounds?: { width: number; height: number; x?: number; y?: number };
}

/** The main window's options: the Electron security checklist in one place. */
export function buildWindowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  appOriginOf(input.baseUrl);
  return {
    width: input.bounds?.width ?? 1400,
    height: input.bounds?.height ?? 900,
    ...(input.bounds?.x !== undefined && { x: input.bounds.x }),
    ...(input.bounds?.y !== undefined && { y: input.bounds.y }),
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Obscura',
    backgroundColor: '#1f2328',
    ...(input.iconPath && { icon: input.iconPath }),
    webPreferences: {
      preload: input.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: true,
      additionalArguments: [`${PRELOAD_ARG_BASE_URL}${new URL(input.baseUrl).origin}`, `${PRELOAD_ARG_VERSION}${input.version}`],
    },
  };
}
