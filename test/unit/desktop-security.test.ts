import { describe, expect, it } from 'vitest';
import {
  ALLOWED_PERMISSIONS,
  PRELOAD_ARG_BASE_URL,
  PRELOAD_ARG_VERSION,
  appOriginOf,
  buildWindowOptions,
  contentSecurityPolicy,
  decideNavigation,
  decidePermission,
  decideWindowOpen,
  isSafeExternalUrl,
  withContentSecurityPolicy,
} from '../../main/desktop/security.js';

const ORIGIN = 'http://127.0.0.1:43121';

describe('window options', () => {
  const options = buildWindowOptions({ preloadPath: '/app/dist/main/desktop/preload.cjs', baseUrl: `${ORIGIN}/`, version: '1.2.3' });

  it('turns on every item of the Electron security checklist', () => {
    expect(options.webPreferences).toMatchObject({
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
    });
    expect(options.webPreferences?.preload).toBe('/app/dist/main/desktop/preload.cjs');
  });

  it('hands the preload only the origin and the version, as arguments', () => {
    expect(options.webPreferences?.additionalArguments).toEqual([`${PRELOAD_ARG_BASE_URL}${ORIGIN}`, `${PRELOAD_ARG_VERSION}1.2.3`]);
  });

  it('opens hidden (shown when ready), at the default size unless bounds are restored', () => {
    expect(options).toMatchObject({ show: false, width: 1400, height: 900, minWidth: 960, minHeight: 600 });
    expect(options).not.toHaveProperty('x');
    const restored = buildWindowOptions({ preloadPath: 'p', baseUrl: ORIGIN, version: '1', bounds: { x: 40, y: 30, width: 1000, height: 700 } });
    expect(restored).toMatchObject({ x: 40, y: 30, width: 1000, height: 700 });
  });

  it('refuses to build a window for anything but the loopback server', () => {
    for (const url of ['https://127.0.0.1:43121', 'http://192.168.1.5:8080', 'http://example.org:80', 'file:///etc/passwd', 'http://127.0.0.1']) {
      expect(() => buildWindowOptions({ preloadPath: 'p', baseUrl: url, version: '1' })).toThrow(/loopback/);
    }
    expect(appOriginOf('http://[::1]:5000/x')).toBe('http://[::1]:5000');
  });
});

describe('navigation', () => {
  it('stays on the app origin', () => {
    expect(decideNavigation(`${ORIGIN}/#/cases/4`, ORIGIN)).toBe('allow');
    expect(decideNavigation(`${ORIGIN}/files/downloads/abc`, ORIGIN)).toBe('allow');
  });

  it.each([
    'http://127.0.0.1:43122/',
    'https://127.0.0.1:43121/',
    'http://localhost:43121/',
    `http://evil@127.0.0.1:43121/`,
    'http://127.0.0.1:43121@evil.example/',
    'https://example.org/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'not a url',
  ])('refuses %s', (url) => {
    expect(decideNavigation(url, ORIGIN)).toBe('deny');
  });
});

describe('new windows and external links', () => {
  it('never opens a second app window', () => {
    expect(decideWindowOpen(`${ORIGIN}/#/settings`, ORIGIN)).toEqual({ action: 'deny', openExternally: null });
  });

  it('sends safe web links to the system browser', () => {
    expect(decideWindowOpen('https://www.justice.gov/oip/foia-guide', ORIGIN)).toEqual({ action: 'deny', openExternally: 'https://www.justice.gov/oip/foia-guide' });
  });

  it.each([
    'file:///C:/Windows/System32/calc.exe',
    'smb://server/share',
    'ms-settings:privacy',
    'javascript:void(0)',
    'https://user:secret@example.org/',
    'http://localhost:8080/admin',
    'http://127.0.0.2/',
    'http://[::1]/',
    'http://2130706433/',
    'http://0x7f000001/',
    `https://example.org/${'a'.repeat(2100)}`,
  ])('keeps %s from the system browser', (url) => {
    expect(isSafeExternalUrl(url)).toBe(false);
    expect(decideWindowOpen(url, ORIGIN).openExternally).toBeNull();
  });
});

describe('permissions', () => {
  it('grants the short list to the app only, and nothing else to anyone', () => {
    for (const permission of ALLOWED_PERMISSIONS) {
      expect(decidePermission(permission, `${ORIGIN}/`, ORIGIN)).toBe(true);
      expect(decidePermission(permission, 'https://example.org/', ORIGIN)).toBe(false);
      expect(decidePermission(permission, undefined, ORIGIN)).toBe(false);
    }
    for (const permission of ['media', 'geolocation', 'notifications', 'midi', 'hid', 'serial', 'usb', 'display-capture', 'pointerLock', 'openExternal', 'clipboard-read']) {
      expect(decidePermission(permission, `${ORIGIN}/`, ORIGIN)).toBe(false);
    }
  });
});

describe('content security policy', () => {
  const policy = contentSecurityPolicy();
  const directives = new Map(policy.split(';').map((part) => {
    const [name, ...values] = part.trim().split(/\s+/);
    return [name!, values];
  }));

  it('allows scripts from the app only: no inline script, no eval', () => {
    expect(directives.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(policy).not.toContain("'unsafe-eval'");
    expect(directives.get('script-src')).not.toContain("'unsafe-inline'");
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
  });

  it('forbids plugins, framing and base-URI changes', () => {
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('frame-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
  });

  it('replaces whatever policy the response had, whatever the header case', () => {
    const headers = withContentSecurityPolicy({ 'content-security-policy': ["default-src *"], 'Content-Type': ['text/html'] });
    expect(headers).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [policy] });
    expect(withContentSecurityPolicy(undefined)).toEqual({ 'Content-Security-Policy': [policy] });
  });
});
