// Checks run on every screen of the clerk's day (day.spec.ts): at both window sizes, no labelled control's
// text is clipped, axe finds no serious or critical violation, and a screenshot goes to docs/screenshots/.
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { saveScreenshot } from './fixtures.js';

export const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
] as const;

/** Labelled controls whose text is cut: scrollWidth beyond clientWidth (visually hidden labels, 1px wide, aside). */
export async function clippedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const controls = [...document.querySelectorAll<HTMLElement>('button, a.button, [role="tab"], .badge, .clock-tag, label > span, th')];
    return controls
      .filter((element) => element.offsetParent !== null && element.clientWidth > 2 && element.scrollWidth > element.clientWidth + 1)
      .map((element) => `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 60)}" (${element.scrollWidth} > ${element.clientWidth})`);
  });
}

export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} — ${violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(', ')}`);
}

/** Every check of one screen at both sizes; the window is left at the first size. */
export async function checkScreen(page: Page, name: string): Promise<void> {
  for (const viewport of [...VIEWPORTS].reverse()) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(150);
    expect(await clippedControls(page), `clipped controls on ${name} at ${viewport.width}×${viewport.height}`).toEqual([]);
    expect(await seriousViolations(page), `axe on ${name} at ${viewport.width}×${viewport.height}`).toEqual([]);
    await saveScreenshot(page, `day-${name}-${viewport.width}`);
  }
}
