import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIZE, WINDOW_STATE_FILE, parseWindowState, readWindowState, restoreWindow, writeWindowState } from '../../main/desktop/window-state.js';

const LAPTOP = { x: 0, y: 0, width: 1920, height: 1040 };
const RIGHT_MONITOR = { x: 1920, y: 0, width: 2560, height: 1400 };

describe('restoring the window', () => {
  it('opens at the default size the first time', () => {
    expect(restoreWindow(null, [LAPTOP])).toEqual({ bounds: { ...DEFAULT_SIZE }, maximized: false });
  });

  it('puts the window back where it was, on whichever display', () => {
    expect(restoreWindow({ bounds: { x: 2100, y: 80, width: 1600, height: 1000 }, maximized: false }, [LAPTOP, RIGHT_MONITOR])).toEqual({
      bounds: { x: 2100, y: 80, width: 1600, height: 1000 },
      maximized: false,
    });
    expect(restoreWindow({ bounds: { x: 100, y: 50, width: 1200, height: 800 }, maximized: true }, [LAPTOP]).maximized).toBe(true);
  });

  it('falls back to the default when the display it was on is gone', () => {
    const restored = restoreWindow({ bounds: { x: 2100, y: 80, width: 1600, height: 1000 }, maximized: false }, [LAPTOP]);
    expect(restored.bounds).toEqual({ ...DEFAULT_SIZE });
  });

  it('shrinks and pulls the window onto a smaller display, never below the minimum size', () => {
    const restored = restoreWindow({ bounds: { x: 1800, y: -10, width: 3000, height: 2000 }, maximized: false }, [LAPTOP, { x: 1920, y: 0, width: 1280, height: 720 }]);
    expect(restored.bounds).toEqual({ x: 1920, y: 0, width: 1280, height: 720 });
    const tiny = restoreWindow({ bounds: { x: 10, y: 10, width: 200, height: 100 }, maximized: false }, [LAPTOP]);
    expect(tiny.bounds).toMatchObject({ width: 960, height: 600 });
  });

  it('needs the title bar on screen: a window whose top is above every display is not restored there', () => {
    const restored = restoreWindow({ bounds: { x: 100, y: -900, width: 1200, height: 800 }, maximized: false }, [LAPTOP]);
    expect(restored.bounds).toEqual({ ...DEFAULT_SIZE });
  });
});

describe('the state file', () => {
  it('round-trips, and ignores anything malformed', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-window-'));
    try {
      expect(readWindowState(dir)).toBeNull();
      writeWindowState(dir, { bounds: { x: 12.4, y: 30, width: 1300, height: 850 }, maximized: true });
      expect(readWindowState(dir)).toEqual({ bounds: { x: 12, y: 30, width: 1300, height: 850 }, maximized: true });
      expect(fs.readdirSync(dir)).toEqual([WINDOW_STATE_FILE]);
      fs.writeFileSync(path.join(dir, WINDOW_STATE_FILE), '{"bounds": {"x": 1');
      expect(readWindowState(dir)).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(parseWindowState({ bounds: { x: 0, y: 0, width: -5, height: 10 } })).toBeNull();
    expect(parseWindowState({ bounds: { x: 'a', y: 0, width: 5, height: 10 } })).toBeNull();
    expect(parseWindowState([])).toBeNull();
  });
});
