import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from '../../main/desktop/electron-types.js';
import { MENU_ROUTES, buildMenuTemplate } from '../../main/desktop/menu.js';
import { parseRoute } from '../../renderer/src/domain/routes.js';

function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((item) => [item, ...flatten(item.submenu ?? [])]);
}

function build(platform: NodeJS.Platform, isPackaged: boolean) {
  const actions = { navigate: vi.fn(), openDataFolder: vi.fn(), showAbout: vi.fn() };
  return { template: buildMenuTemplate({ platform, appName: 'Obscura', isPackaged }, actions), actions };
}

describe('application menu', () => {
  it('has the usual menus; macOS gets the app menu first', () => {
    expect(build('linux', true).template.map((menu) => menu.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
    expect(build('win32', true).template.map((menu) => menu.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
    expect(build('darwin', true).template.map((menu) => menu.label)).toEqual(['Obscura', 'File', 'Edit', 'View', 'Window', 'Help']);
  });

  it('offers developer tools only outside a packaged build', () => {
    const roles = (isPackaged: boolean) => flatten(build('linux', isPackaged).template).map((item) => item.role);
    expect(roles(true)).not.toContain('toggleDevTools');
    expect(roles(false)).toContain('toggleDevTools');
  });

  it('navigates only to routes the renderer knows', () => {
    const { template, actions } = build('linux', true);
    const items = flatten(template);
    items.find((item) => item.label === 'Case queue')?.click?.();
    items.find((item) => item.label === 'Settings…')?.click?.();
    items.find((item) => item.label === 'Open data folder')?.click?.();
    expect(actions.navigate.mock.calls).toEqual([[MENU_ROUTES.queue], [MENU_ROUTES.settings]]);
    expect(actions.openDataFolder).toHaveBeenCalledOnce();
    expect(parseRoute(`#${MENU_ROUTES.queue}`)).toEqual({ name: 'queue' });
    expect(parseRoute(`#${MENU_ROUTES.settings}`)).toEqual({ name: 'settings', section: null });
  });

  it('has a quit item (or close on macOS, where quit lives in the app menu) and shortcuts without clashes', () => {
    const linux = flatten(build('linux', true).template);
    expect(linux.some((item) => item.role === 'quit')).toBe(true);
    const mac = flatten(build('darwin', true).template);
    expect(mac.filter((item) => item.role === 'quit')).toHaveLength(1);
    for (const items of [linux, mac]) {
      const accelerators = items.map((item) => item.accelerator).filter(Boolean);
      expect(new Set(accelerators).size).toBe(accelerators.length);
    }
  });
});
