// The application menu as a plain template (tested under Node). Items that move around the app navigate the
// window to one of its own hash routes, so the menu needs no IPC channel into the renderer.
import type { MenuItemConstructorOptions } from './electron-types.js';

export interface MenuActions {
  /** Loads `<app origin>/#<route>` in the main window. */
  navigate(route: string): void;
  openDataFolder(): void;
  showAbout(): void;
}

export interface MenuInput {
  platform: NodeJS.Platform;
  appName: string;
  /** Developer tools only in unpackaged (development) runs. */
  isPackaged: boolean;
}

/** In-app routes the menu may open; the renderer's hash router knows the same ones. */
export const MENU_ROUTES = { queue: '/cases', settings: '/settings' } as const;

export function buildMenuTemplate(input: MenuInput, actions: MenuActions): MenuItemConstructorOptions[] {
  const isMac = input.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [];

  if (isMac) {
    template.push({
      label: input.appName,
      submenu: [
        { label: `About ${input.appName}`, click: () => actions.showAbout() },
        { type: 'separator' },
        { label: 'Settings…', accelerator: 'CmdOrCtrl+,', click: () => actions.navigate(MENU_ROUTES.settings) },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }

  template.push({
    label: 'File',
    submenu: [
      { label: 'Case queue', accelerator: 'CmdOrCtrl+1', click: () => actions.navigate(MENU_ROUTES.queue) },
      ...(isMac ? [] : [{ label: 'Settings…', accelerator: 'CmdOrCtrl+,', click: () => actions.navigate(MENU_ROUTES.settings) }]),
      { type: 'separator' },
      { label: 'Open data folder', click: () => actions.openDataFolder() },
      { type: 'separator' },
      isMac ? { role: 'close' } : { role: 'quit' },
    ],
  });

  template.push({
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  });

  template.push({
    label: 'View',
    submenu: [
      { role: 'reload' },
      ...(input.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  });

  template.push({
    label: 'Window',
    submenu: isMac ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }],
  });

  template.push({
    label: 'Help',
    role: 'help',
    submenu: [{ label: `About ${input.appName}`, click: () => actions.showAbout() }],
  });

  return template;
}
