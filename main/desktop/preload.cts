// The sandboxed preload. Sandboxed preloads are CommonJS and may only require a few Electron modules,
// so this file is self-contained (.cts → preload.cjs) and imports nothing from the app at run time.
// It exposes a frozen, read-only object: the app version and the embedded server's base URL. No IPC,
// no Node APIs, nothing callable that reaches the main process.
import type { ObscuraDesktopApi } from '../common/desktop-api.js';
import type { ElectronPreloadModule } from './electron-types.js';

// Keep in sync with PRELOAD_ARG_* in security.ts (a sandboxed preload cannot require that module).
const BASE_URL_ARG = '--obscura-base-url=';
const VERSION_ARG = '--obscura-version=';

function argument(prefix: string): string {
  const found = process.argv.find((arg) => arg.startsWith(prefix));
  return found ? found.slice(prefix.length) : '';
}

const api: ObscuraDesktopApi = Object.freeze({
  isDesktop: true as const,
  version: argument(VERSION_ARG),
  baseUrl: argument(BASE_URL_ARG),
});

const { contextBridge } = require('electron') as ElectronPreloadModule;
// Keep the name in sync with DESKTOP_API_GLOBAL (main/common/desktop-api.ts).
contextBridge.exposeInMainWorld('obscura', api);
