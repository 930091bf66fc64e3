/**
 * The few Electron APIs the desktop shell uses, described locally: the electron package (and its types)
 * is an optional dependency that may be absent, and everything under main/ must typecheck without it.
 * Shapes follow Electron's documented API; only the members used here are listed.
 */

export interface Rectangle {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

export interface WebPreferences {
  preload?: string;
  contextIsolation?: boolean;
  sandbox?: boolean;
  nodeIntegration?: boolean;
  nodeIntegrationInWorker?: boolean;
  nodeIntegrationInSubFrames?: boolean;
  webSecurity?: boolean;
  allowRunningInsecureContent?: boolean;
  webviewTag?: boolean;
  experimentalFeatures?: boolean;
  navigateOnDragDrop?: boolean;
  safeDialogs?: boolean;
  spellcheck?: boolean;
  devTools?: boolean;
  /** Appended to the renderer's process.argv; how the preload learns values without IPC. */
  additionalArguments?: string[];
}

export interface BrowserWindowConstructorOptions {
  width?: number;
  height?: number;
  x?: number;
  y?: number;
  minWidth?: number;
  minHeight?: number;
  show?: boolean;
  title?: string;
  backgroundColor?: string;
  icon?: string;
  autoHideMenuBar?: boolean;
  webPreferences?: WebPreferences;
}

export interface ElectronEvent {
  preventDefault(): void;
}

export type WindowOpenHandlerResponse = { action: 'deny' } | { action: 'allow' };

export interface PermissionRequestDetails {
  requestingUrl?: string;
  isMainFrame?: boolean;
}

export interface PermissionCheckDetails {
  requestingUrl?: string;
  isMainFrame?: boolean;
}

export interface OnHeadersReceivedDetails {
  url: string;
  resourceType?: string;
  responseHeaders?: Record<string, string[]>;
}

export interface HeadersReceivedResponse {
  cancel?: boolean;
  responseHeaders?: Record<string, string[] | string>;
}

export interface WebRequest {
  onHeadersReceived(
    filter: { urls: string[] },
    listener: (details: OnHeadersReceivedDetails, callback: (response: HeadersReceivedResponse) => void) => void,
  ): void;
}

export interface Session {
  webRequest: WebRequest;
  setPermissionRequestHandler(
    handler: ((webContents: WebContents, permission: string, callback: (granted: boolean) => void, details: PermissionRequestDetails) => void) | null,
  ): void;
  setPermissionCheckHandler(
    handler: ((webContents: WebContents | null, permission: string, requestingOrigin: string, details: PermissionCheckDetails) => boolean) | null,
  ): void;
}

export interface WebContents {
  session: Session;
  getURL(): string;
  setWindowOpenHandler(handler: (details: { url: string; disposition?: string }) => WindowOpenHandlerResponse): void;
  on(event: 'will-navigate' | 'will-redirect' | 'will-frame-navigate', listener: (event: ElectronEvent & { url?: string }, url: string) => void): this;
  on(event: 'will-attach-webview', listener: (event: ElectronEvent) => void): this;
  on(event: 'render-process-gone', listener: (event: ElectronEvent, details: { reason: string; exitCode: number }) => void): this;
}

export interface BrowserWindow {
  webContents: WebContents;
  loadURL(url: string): Promise<void>;
  show(): void;
  focus(): void;
  restore(): void;
  maximize(): void;
  isMinimized(): boolean;
  isMaximized(): boolean;
  isFullScreen(): boolean;
  isDestroyed(): boolean;
  /** Bounds of the normal state, also while maximized or minimized. */
  getNormalBounds(): Required<Rectangle>;
  once(event: 'ready-to-show', listener: () => void): this;
  on(event: 'closed' | 'resize' | 'move' | 'maximize' | 'unmaximize', listener: () => void): this;
  on(event: 'close', listener: (event: ElectronEvent) => void): this;
}

export interface BrowserWindowConstructor {
  new (options?: BrowserWindowConstructorOptions): BrowserWindow;
  getAllWindows(): BrowserWindow[];
}

export interface App {
  readonly isPackaged: boolean;
  requestSingleInstanceLock(): boolean;
  whenReady(): Promise<void>;
  getPath(name: 'userData' | 'logs' | 'temp'): string;
  getVersion(): string;
  getAppPath(): string;
  quit(): void;
  exit(code?: number): void;
  on(event: 'second-instance' | 'window-all-closed' | 'activate', listener: () => void): this;
  on(event: 'before-quit' | 'will-quit', listener: (event: ElectronEvent) => void): this;
  on(event: 'web-contents-created', listener: (event: ElectronEvent, contents: WebContents) => void): this;
}

export interface Shell {
  openExternal(url: string): Promise<void>;
  /** Opens a file or folder with the system's default program; resolves to an error message or ''. */
  openPath(path: string): Promise<string>;
}

export type MenuRole =
  | 'undo'
  | 'redo'
  | 'cut'
  | 'copy'
  | 'paste'
  | 'selectAll'
  | 'reload'
  | 'toggleDevTools'
  | 'resetZoom'
  | 'zoomIn'
  | 'zoomOut'
  | 'togglefullscreen'
  | 'minimize'
  | 'zoom'
  | 'close'
  | 'quit'
  | 'front'
  | 'hide'
  | 'hideOthers'
  | 'unhide'
  | 'help';

export interface MenuItemConstructorOptions {
  label?: string;
  role?: MenuRole;
  type?: 'normal' | 'separator' | 'submenu';
  accelerator?: string;
  enabled?: boolean;
  click?: () => void;
  submenu?: MenuItemConstructorOptions[];
}

export interface Menu {
  readonly items: unknown[];
}

export interface MenuConstructor {
  buildFromTemplate(template: MenuItemConstructorOptions[]): Menu;
  setApplicationMenu(menu: Menu | null): void;
}

export interface Display {
  workArea: Required<Rectangle>;
}

export interface Screen {
  getAllDisplays(): Display[];
}

export interface MessageBoxOptions {
  type?: 'none' | 'info' | 'error' | 'question' | 'warning';
  title?: string;
  message: string;
  detail?: string;
  buttons?: string[];
}

export interface Dialog {
  showErrorBox(title: string, content: string): void;
  showMessageBox(window: BrowserWindow, options: MessageBoxOptions): Promise<{ response: number }>;
}

export interface SessionModule {
  defaultSession: Session;
}

/** What `import('electron')` yields in the main process. */
export interface ElectronMainModule {
  app: App;
  BrowserWindow: BrowserWindowConstructor;
  shell: Shell;
  dialog: Dialog;
  session: SessionModule;
  Menu: MenuConstructor;
  /** Only usable once the app is ready. */
  screen: Screen;
}

/** What `require('electron')` yields in a sandboxed preload. */
export interface ElectronPreloadModule {
  contextBridge: { exposeInMainWorld(apiKey: string, api: unknown): void };
}
