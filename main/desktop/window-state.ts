// The main window's size, position and maximized state, kept between runs in a small JSON file. The
// rules are plain functions (tested under Node); electron-main.ts feeds them Electron's displays.
import fs from 'node:fs';
import path from 'node:path';

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  /** The normal (not maximized) bounds, so un-maximizing after a restart returns to them. */
  bounds: Bounds;
  maximized: boolean;
}

export interface RestoredWindow {
  /** x/y absent: let the window manager place (centre) the window. */
  bounds: { width: number; height: number; x?: number; y?: number };
  maximized: boolean;
}

export const DEFAULT_SIZE = { width: 1400, height: 900 } as const;
export const MIN_SIZE = { width: 960, height: 600 } as const;
/** How much of the window's top edge must lie on a display for it to be reachable with the mouse. */
const VISIBLE_GRIP = { width: 120, height: 20 } as const;
/** The strip at the top of the window that holds the title bar (and the menu on Windows and Linux). */
const TITLE_BAR_HEIGHT = 40;

export const WINDOW_STATE_FILE = 'window-state.json';

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Validates what was read from disk; anything malformed is treated as "no saved state". */
export function parseWindowState(raw: unknown): WindowState | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const record = raw as Record<string, unknown>;
  const bounds = record.bounds as Record<string, unknown> | undefined;
  if (typeof bounds !== 'object' || bounds === null) return null;
  const { x, y, width, height } = bounds;
  if (!isFiniteNumber(x) || !isFiniteNumber(y) || !isFiniteNumber(width) || !isFiniteNumber(height)) return null;
  if (width <= 0 || height <= 0) return null;
  return { bounds: { x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height) }, maximized: record.maximized === true };
}

function overlap(a: Bounds, b: Bounds): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

/**
 * Where to open the window: the saved bounds when the title bar still lands on one of the current
 * displays (a monitor may have been unplugged since), sized to fit that display; otherwise the default
 * size, centred by the system.
 */
export function restoreWindow(saved: WindowState | null, displays: readonly Bounds[]): RestoredWindow {
  const fallback: RestoredWindow = { bounds: { ...DEFAULT_SIZE }, maximized: saved?.maximized ?? false };
  if (!saved) return { bounds: { ...DEFAULT_SIZE }, maximized: false };
  const titleBar: Bounds = { x: saved.bounds.x, y: saved.bounds.y, width: saved.bounds.width, height: TITLE_BAR_HEIGHT };
  const reachable = displays.filter((area) => {
    const shared = overlap(titleBar, area);
    return shared.width >= Math.min(VISIBLE_GRIP.width, saved.bounds.width) && shared.height >= Math.min(VISIBLE_GRIP.height, saved.bounds.height);
  });
  // Of the displays the title bar reaches, the one holding most of the window.
  const area = (display: Bounds) => {
    const shared = overlap(saved.bounds, display);
    return shared.width * shared.height;
  };
  const display = reachable.sort((a, b) => area(b) - area(a))[0];
  if (!display) return fallback;
  const width = Math.max(MIN_SIZE.width, Math.min(saved.bounds.width, display.width));
  const height = Math.max(MIN_SIZE.height, Math.min(saved.bounds.height, display.height));
  // Pull the window back inside the display if shrinking it or the display change left it hanging over an edge.
  const x = Math.min(Math.max(saved.bounds.x, display.x), display.x + display.width - Math.min(width, display.width));
  const y = Math.min(Math.max(saved.bounds.y, display.y), display.y + display.height - Math.min(height, display.height));
  return { bounds: { x, y, width, height }, maximized: saved.maximized };
}

export function readWindowState(directory: string): WindowState | null {
  try {
    return parseWindowState(JSON.parse(fs.readFileSync(path.join(directory, WINDOW_STATE_FILE), 'utf8')));
  } catch {
    return null;
  }
}

/** Written to a temporary file and renamed, so a crash mid-write never leaves half a file. */
export function writeWindowState(directory: string, state: WindowState): void {
  fs.mkdirSync(directory, { recursive: true });
  const file = path.join(directory, WINDOW_STATE_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
}
