// Opens a flame graph SVG in headless Chromium (playwright-core) and
// checks that it works: no script errors, hover shows details, a click
// zooms (the clicked frame gets the full width), search reports a
// matched share, Reset Zoom restores; the zoomed frame's label is its
// short name (data-l), the details its raw one. Writes a screenshot.
// Usage: node browser_check.js MODULE_DIR CHROMIUM SVG SCREENSHOT USERDIR
'use strict';
const [moduleDir, chromium, svg, shot, userDir] = process.argv.slice(2);
const { openChromium, newWatchedPage } = require('./chromium_page.js');

(async () => {
  const errors = [];
  const browser = await openChromium(moduleDir, chromium, userDir, 800);
  try {
    const page = await newWatchedPage(browser, errors);
    await page.goto('file://' + svg);
    await page.waitForFunction(() => window.cf && window.cf.frames && window.cf.frames.length > 0);
    const result = await page.evaluate(() => {
      const frames = cf.frames;
      // the widest frame that is not the root and not a full-width chain
      let target = null;
      for (const f of frames)
        if (f.w < frames[0].w - 1 && f.w > 20 && (!target || f.w > target.w)) target = f;
      if (!target) target = frames[frames.length - 1];
      const before = +target.rect.getAttribute('width');
      target.rect.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
      const details = document.getElementById('details').textContent;
      target.rect.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      const after = +target.rect.getAttribute('width');
      const zoomLabel = target.text.textContent;
      const hidden = document.querySelectorAll('#frames g.hide').length;
      const unzoomShown = !document.getElementById('unzoom').classList.contains('hide');
      const share = cfSearch(target.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      const matched = document.getElementById('matched').textContent;
      cfResetSearch();
      cfUnzoom();
      const restored = +target.rect.getAttribute('width');
      return { name: target.name, raw: target.raw, zoomLabel, before, after, hidden, unzoomShown, details, share, matched,
               restored, full: cf.width - 2 * cf.xpad };
    });
    await page.screenshot({ path: shot });
    console.log(JSON.stringify({ errors, result }));
  } finally {
    await browser.close();
  }
})().catch((e) => { console.log(JSON.stringify({ errors: ['driver: ' + e.message] })); process.exit(2); });
