// The clipped-control check of the clerk's day (support/screens.ts) on fixed pages: it finds a drop-down whose
// options are cut (the layer drop-down as it was: "Privileged communicat"), a button whose text is cut, a
// file name cut by the narrow list it sits in, a badge sticking out of its box, a field's cut placeholder, and passes what fits.
import { expect, test } from '@playwright/test';
import { clippedControls } from './support/screens.js';

const LAYERS = ['1. B1 (b)(1) — National security', '5. B5 (b)(5) — Privileged communications', '6. B6 (b)(6) — Personal privacy'];
const select = (width: string) => `<label style="display:flex;flex-direction:column;width:${width}"><span>Layer (exemption)</span><select style="font:14px sans-serif;padding:4px 8px">${LAYERS.map((text, index) => `<option${index === 2 ? ' selected' : ''}>${text}</option>`).join('')}</select></label>`;

test('finds cut drop-downs, buttons and labels, and passes what fits', async ({ page }) => {
  await page.setContent(`<body style="font:14px sans-serif">
    <div id="narrow">${select('250px')}</div>
    <button style="width:60px;white-space:nowrap;overflow:hidden">Preview as released</button>
    <div style="width:120px;overflow:auto"><label style="display:flex;white-space:nowrap"><input type="checkbox">permit-complaint-follow-up-attachment.pdf</label></div>
    <div style="width:120px;overflow:hidden"><span class="badge" style="display:inline-block;white-space:nowrap">Released #1 on Nov 28, 2026</span></div>
    <input style="width:180px;font:14px sans-serif" placeholder="Name, number or description">
  </body>`);
  const found = await clippedControls(page);
  expect(found).toHaveLength(5);
  expect(found[4]).toMatch(/^placeholder "Name, number or description"/);
  expect(found[0]).toMatch(/^button "Preview as released"/);
  expect(found[1]).toMatch(/^label "permit-complaint-follow-up-attachment.pdf"/);
  expect(found[2]).toMatch(/^span "Released #1 on Nov 28, 2026" sticks out of div/);
  expect(found[3]).toMatch(/^select "Layer \(exemption\)" cuts its options, e\.g\. "5\. B5 \(b\)\(5\) — Privileged communications"/);

  await page.setContent(`<body style="font:14px sans-serif">
    ${select('600px')}
    <button>Preview as released</button>
    <div style="width:120px;overflow:auto"><label style="display:flex;overflow-wrap:anywhere"><input type="checkbox"><span style="min-width:0">permit-complaint-follow-up-attachment.pdf</span></label></div>
    <div style="width:240px;overflow:hidden"><span class="badge" style="display:inline-block;white-space:nowrap">Released #1 on Nov 28, 2026</span></div>
    <input style="width:320px;font:14px sans-serif" placeholder="Name, number or description">
  </body>`);
  expect(await clippedControls(page)).toEqual([]);
});
