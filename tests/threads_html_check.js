// For tests/threads-pool.sh: opens a report page (-f html) in headless
// Chromium and prints one JSON line: script errors, the rows of the
// benchmark table as their cells' text, and for each part whether its
// flame graph was drawn and the names of its frames three levels deep
// (where the threads' frames are).
// Usage: node threads_html_check.js MODULE_DIR CHROMIUM PAGE SCREENSHOT USERDIR
'use strict';
const path = require('path');
const [moduleDir, chromium, file, shot, userDir] = process.argv.slice(2);
const { openChromium, newWatchedPage } =
  require(path.join(__dirname, '..', 'callgrind_fold', 'tests', 'chromium_page.js'));

(async () => {
  const errors = [];
  const browser = await openChromium(moduleDir, chromium, userDir, 900);
  try {
    const page = await newWatchedPage(browser, errors);
    await page.goto('file://' + file);
    await page.waitForFunction(() => window.cfReport && window.cfReport.graphs[0] &&
                                     window.cfReport.graphs[0].drawn > 0, null, { timeout: 30000 });
    const result = await page.evaluate(() => {
      const R = window.cfReport;
      const rows = [...document.querySelectorAll('table.cf-table tbody tr')]
        .map((tr) => [...tr.querySelectorAll('td,th')].map((c) => c.textContent.trim()));
      const parts = [];
      for (let i = 0; i < R.meta.parts.length; i++) {
        R.openPart(i);
        const g = R.graphs[i], t = g.tree, top = [];
        for (let n = 1; n < t.n; n++)
          if (t.depth[n] <= 3) top.push(R.meta.names[t.name[n]]);
        parts.push({ drawn: g.drawn, top });
      }
      R.openPart(0);
      return { rows, parts };
    });
    await page.screenshot({ path: shot, fullPage: true });
    console.log(JSON.stringify({ errors, result }));
  } catch (e) {
    console.log(JSON.stringify({ errors: errors.concat(['driver: ' + e.message]) }));
  } finally {
    await browser.close();
  }
})();
