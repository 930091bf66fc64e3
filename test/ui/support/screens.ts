// Checks run on every screen of the clerk's day (day.spec.ts): at both window sizes, no labelled control's
// text is clipped, axe finds no serious or critical violation, and a screenshot goes to docs/screenshots/.
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { saveScreenshot } from './fixtures.js';

export const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
] as const;

/**
 * Labelled controls whose text is cut, in words. Three ways text gets cut, each checked:
 * - the control's own content is wider than it (scrollWidth beyond clientWidth): buttons, tabs, badges, labels,
 *   legends, table headers, options of a list box;
 * - the control sticks out of an ancestor that clips or scrolls (a narrow list, a dialog), so its end is hidden;
 * - an empty field narrower than its placeholder;
 * - a drop-down (select) narrower than its widest option: any option, chosen, shows cut in the closed control
 *   ("5. B5 (b)(5) — Privileged communicat"). Chromium sizes a select of `width: auto` to its widest option, so a
 *   copy of the select at that width, wider than the select itself, is the cut.
 * Visually hidden labels (1px wide) aside.
 */
export function clippedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const text = (element: Element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
    const shown = (element: HTMLElement) => element.offsetParent !== null && element.clientWidth > 2;
    const controls = [...document.querySelectorAll<HTMLElement>('button, a.button, [role="tab"], [role="option"], .badge, .clock-tag, label, label > span, legend, th')].filter(shown);
    for (const element of controls) {
      if (element.scrollWidth > element.clientWidth + 1) {
        found.push(`${element.tagName.toLowerCase()} "${text(element)}" (${element.scrollWidth} > ${element.clientWidth})`);
        continue;
      }
      const box = element.getBoundingClientRect();
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (style.overflowX === 'visible') continue;
        const edge = parent.getBoundingClientRect();
        const right = edge.left + parent.clientLeft + parent.clientWidth;
        if (box.right > right + 1 || box.left < edge.left + parent.clientLeft - 1) {
          found.push(`${element.tagName.toLowerCase()} "${text(element)}" sticks out of ${parent.tagName.toLowerCase()}.${parent.className} (${Math.round(box.right)} > ${Math.round(right)})`);
        }
        break;
      }
    }
    for (const select of document.querySelectorAll<HTMLSelectElement>('select')) {
      if (!shown(select)) continue;
      const natural = select.cloneNode(true) as HTMLSelectElement;
      natural.removeAttribute('id');
      natural.style.cssText = 'position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none;flex:none;left:0;top:0';
      select.parentElement?.append(natural);
      const needed = natural.getBoundingClientRect().width;
      natural.remove();
      const has = select.getBoundingClientRect().width;
      if (needed > has + 1) {
        const widest = [...select.options].map((option) => option.text).sort((a, b) => b.length - a.length)[0] ?? '';
        const owner = select.labels?.[0];
        const label = owner ? [...owner.childNodes].filter((node) => !(node instanceof HTMLSelectElement)).map((node) => node.textContent ?? '').join(' ').replace(/\s+/g, ' ').trim() : (select.getAttribute('aria-label') ?? select.name);
        found.push(`select "${label}" cuts its options, e.g. "${widest.slice(0, 60)}" (${Math.round(needed)} > ${Math.round(has)})`);
      }
    }
    // An empty field's placeholder is its visible text too ("Name, number or descri").
    const canvas = document.createElement('canvas').getContext('2d');
    for (const field of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[placeholder], textarea[placeholder]')) {
      if (!shown(field) || field.value !== '' || !canvas) continue;
      const style = getComputedStyle(field);
      canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const longest = field instanceof HTMLTextAreaElement ? 0 : canvas.measureText(field.placeholder).width;
      if (longest > room + 1) found.push(`placeholder "${field.placeholder.slice(0, 60)}" (${Math.round(longest)} > ${Math.round(room)})`);
    }
    return found;
  });
}

export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} — ${violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(', ')}`);
}

/** Every check of one screen at both sizes; the window is left at the first size. */
export async function checkScreen(page: Page, name: string, shows?: Locator): Promise<void> {
  for (const viewport of [...VIEWPORTS].reverse()) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(150);
    // What the screen is about, in view for its screenshot at each size.
    if (shows) await shows.scrollIntoViewIfNeeded();
    // Soft: every screen's findings are reported in one run; the test still fails at its end.
    expect.soft(await clippedControls(page), `clipped controls on ${name} at ${viewport.width}×${viewport.height}`).toEqual([]);
    expect.soft(await seriousViolations(page), `axe on ${name} at ${viewport.width}×${viewport.height}`).toEqual([]);
    await saveScreenshot(page, `day-${name}-${viewport.width}`);
  }
}
