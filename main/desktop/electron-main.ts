// The Electron main process: one instance per user, the embedded server on a free loopback port in the
// user's data directory, one locked-down window on that server's origin, and a graceful stop on quit.
// `electron` is imported dynamically and described by ./electron-types.ts so that main/ typechecks and
// builds where the optional electron package is not installed.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDataDir } from '../config.js';
import { startInstance, type RunningInstance } from '../serve.js';
import type { BrowserWindow, ElectronMainModule, WebContents } from './electron-types.js';
import { buildMenuTemplate } from './menu.js';
import {
  appOriginOf,
  buildWindowOptions,
  decideNavigation,
  decidePermission,
  decideWindowOpen,
  withContentSecurityPolicy,
} from './security.js';
import { readWindowState, restoreWindow, writeWindowState, type WindowState } from './window-state.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** dist/main/desktop → project (or app.asar) root. */
const appRoot = path.resolve(here, '../../..');

async function loadElectron(): Promise<ElectronMainModule> {
  const specifier = 'electron';
  const loaded = (await import(specifier)) as Partial<ElectronMainModule> & { default?: ElectronMainModule };
  const electron = loaded.app ? (loaded as ElectronMainModule) : loaded.default;
  if (!electron?.app) throw new Error('this file is the Electron main process; start the app with `npm start`');
  return electron;
}

const electron = await loadElectron();
const { app, BrowserWindow, Menu, dialog, shell } = electron;

let instance: RunningInstance | null = null;
let mainWindow: BrowserWindow | null = null;
let appOrigin: string | null = null;
let stopped = false;

/** Every web contents (windows, and anything a page might try to create) gets the same rules. */
function lockDown(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    const origin = appOrigin;
    const decision = origin ? decideWindowOpen(url, origin) : { action: 'deny' as const, openExternally: null };
    if (decision.openExternally) {
      shell.openExternal(decision.openExternally).catch((error: unknown) => console.error(`could not open ${decision.openExternally}:`, error));
    }
    return { action: decision.action };
  });
  const guard = (event: { preventDefault(): void }, url: string) => {
    if (!appOrigin || decideNavigation(url, appOrigin) === 'deny') event.preventDefault();
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-frame-navigate', (event, url) => guard(event, event.url ?? url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

function installSessionPolicies(origin: string): void {
  const session = electron.session.defaultSession;
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(decidePermission(permission, details.requestingUrl, origin));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    decidePermission(permission, details.requestingUrl ?? requestingOrigin, origin),
  );
  session.webRequest.onHeadersReceived({ urls: [`${origin}/*`] }, (details, callback) => {
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders) });
  });
}

/** Saves the window's bounds shortly after it stops moving, and at once when it closes. */
function keepWindowState(window: BrowserWindow): void {
  const directory = app.getPath('userData');
  const snapshot = (): WindowState => ({ bounds: window.getNormalBounds(), maximized: window.isMaximized() || window.isFullScreen() });
  const save = (state: WindowState) => {
    try {
      writeWindowState(directory, state);
    } catch (error) {
      console.error('could not save the window state:', error);
    }
  };
  let timer: NodeJS.Timeout | null = null;
  const later = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (!window.isDestroyed()) save(snapshot());
    }, 500);
  };
  for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const) window.on(event, later);
  window.on('close', () => {
    if (timer) clearTimeout(timer);
    save(snapshot());
  });
}

async function createWindow(baseUrl: string): Promise<void> {
  const displays = electron.screen.getAllDisplays().map((display) => display.workArea);
  const restored = restoreWindow(readWindowState(app.getPath('userData')), displays);
  const window = new BrowserWindow(
    buildWindowOptions({
      preloadPath: path.join(here, 'preload.cjs'),
      baseUrl,
      version: app.getVersion(),
      iconPath: path.join(appRoot, 'resources', 'icon.png'),
      bounds: restored.bounds,
    }),
  );
  mainWindow = window;
  if (restored.maximized) window.maximize();
  keepWindowState(window);
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  window.once('ready-to-show', () => window.show());
  await window.loadURL(`${baseUrl}/`);
}

function installMenu(dataDir: string): void {
  const template = buildMenuTemplate(
    { platform: process.platform, appName: 'Obscura', isPackaged: app.isPackaged },
    {
      navigate: (route) => {
        // Hash routes only: the navigation guard would refuse anything off the app's origin anyway.
        if (mainWindow && !mainWindow.isDestroyed() && appOrigin) void mainWindow.loadURL(`${appOrigin}/#${route}`);
      },
      openDataFolder: () => {
        shell.openPath(dataDir).then((problem) => problem && console.error(`could not open ${dataDir}: ${problem}`), console.error);
      },
      showAbout: () => {
        if (!mainWindow) return;
        void dialog.showMessageBox(mainWindow, {
          type: 'info',
          title: 'About Obscura',
          message: `Obscura ${app.getVersion()}`,
          detail: `Offline redaction workstation for public-records offices.\nData folder: ${dataDir}`,
        });
      },
    },
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function focusMainWindow(): void {
  if (!mainWindow || mainWindow.isDestroyed()) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

async function stopServer(): Promise<void> {
  const running = instance;
  instance = null;
  if (running) await running.stop();
}

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    // Another Obscura window is open on this data directory; it gets focused by its second-instance event.
    app.quit();
    return;
  }
  app.on('second-instance', focusMainWindow);
  app.on('web-contents-created', (_event, contents) => lockDown(contents));
  app.on('window-all-closed', () => app.quit());
  app.on('activate', () => {
    if (!mainWindow && instance && !stopped) void createWindow(instance.url);
  });
  app.on('before-quit', (event) => {
    if (stopped) return;
    // Finish in-flight requests and close the database before the process goes away.
    event.preventDefault();
    stopped = true;
    stopServer()
      .catch((error: unknown) => console.error('stopping the embedded server failed:', error))
      .finally(() => app.quit());
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => app.quit());

  await app.whenReady();
  let firstRunFile: string | null = null;
  // The same per-user data directory as the headless `npm start`, so both modes share one workspace.
  const dataDir = defaultDataDir();
  // The server listens (on a port the system picks) before any window exists, so the first page load succeeds.
  instance = await startInstance({
    dataDir,
    overrides: { host: '127.0.0.1', port: 0 },
    onFirstRun: (_credentials, credentialsFile) => {
      firstRunFile = credentialsFile;
    },
  });
  appOrigin = appOriginOf(instance.url);
  installSessionPolicies(appOrigin);
  installMenu(dataDir);
  console.log(`listening on ${instance.url}`);
  await createWindow(instance.url);
  if (firstRunFile && mainWindow) {
    await dialog.showMessageBox(mainWindow, {
      type: 'info',
      title: 'Obscura is set up',
      message: 'A new Obscura workspace was created.',
      detail: `The administrator's user name and generated password are in ${firstRunFile} (readable by you only). Sign in with them, then change the password.`,
    });
  }
}

main().catch(async (error: unknown) => {
  console.error(error);
  dialog.showErrorBox('Obscura could not start', error instanceof Error ? error.message : String(error));
  stopped = true;
  await stopServer().catch(() => undefined);
  app.exit(1);
});
