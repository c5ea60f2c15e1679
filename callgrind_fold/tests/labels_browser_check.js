// Opens an HTML report (-f html) of C++ and Rust frames in headless
// Chromium (playwright-core) and reads what a person sees: the label drawn
// on each frame of the first part, and the tooltip of a frame when the
// mouse is over it (its label and its raw name), for every frame whose
// label is given. Writes a screenshot with the last tooltip shown. Prints
// one JSON line: { errors, labels: {label: count}, tips: {label: [tip]} }.
// Usage: node labels_browser_check.js MODULE_DIR CHROMIUM PAGE SCREENSHOT USERDIR LABEL...
'use strict';
const [moduleDir, chromium, file, shot, userDir, ...wanted] = process.argv.slice(2);
const { openReport } = require('./chromium_page.js');

(async () => {
  const errors = [];
  const { browser, page } = await openReport(moduleDir, chromium, userDir, 700, file, errors);
  try {
    const result = await page.evaluate((wanted) => {
      const R = window.cfReport;
      R.openPart(0);
      const g = R.graphs[0], t = g.tree;
      const labels = {}, tips = {};
      const rect = g.canvas.getBoundingClientRect();
      for (let d = 0; d < g.rows.length; d++) {
        for (const row of g.rows[d] || []) {
          const node = row[2], name = R.meta.names[t.name[node]];
          labels[name] = (labels[name] || 0) + 1;
          if (!wanted.includes(name))
            continue;
          const y = rect.top + 4 + (g.deepest - t.depth[node]) * 17 + 8;
          g.canvas.dispatchEvent(new MouseEvent('mousemove', {
            clientX: rect.left + (row[0] + row[1]) / 2, clientY: y, bubbles: true }));
          (tips[name] = tips[name] || []).push(document.getElementById('cf-tip').textContent);
        }
      }
      return { labels, tips };
    }, wanted);
    await page.screenshot({ path: shot, fullPage: false });
    console.log(JSON.stringify({ errors, labels: result.labels, tips: result.tips }));
  } finally {
    await browser.close();
  }
})().catch((e) => { console.log(JSON.stringify({ errors: ['driver: ' + e.message] })); process.exit(2); });
