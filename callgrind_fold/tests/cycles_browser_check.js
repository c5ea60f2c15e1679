// Opens an HTML report (-f html) of a profile with --cycle-estimation's
// events in headless Chromium (playwright-core) and reads what a person
// sees of them: the benchmark table's header (text and title) and first
// row, the first part's summary line, and for each event the tooltip of
// frame FRAME and the graph's search total. Writes a
// screenshot of the page. Prints one
// JSON line: { errors, head, titles, row, summary, tips: {event: tip}, matched }.
// Usage: node cycles_browser_check.js MODULE_DIR CHROMIUM PAGE SCREENSHOT USERDIR FRAME
'use strict';
const [moduleDir, chromium, file, shot, userDir, frame] = process.argv.slice(2);
const { openReport } = require('./chromium_page.js');

(async () => {
  const errors = [];
  const { browser, page } = await openReport(moduleDir, chromium, userDir, 700, file, errors);
  try {
    const result = await page.evaluate((frame) => {
      const R = window.cfReport, table = document.querySelector('table.cf-table');
      const head = Array.from(table.tHead.rows[0].cells);
      const out = {
        head: head.map((c) => c.textContent), titles: head.map((c) => c.title),
        row: Array.from(table.tBodies[0].rows[0].cells).map((c) => c.textContent),
        summary: document.querySelector('details.cf-part summary').textContent,
        tips: {}, matched: {},
      };
      R.openPart(0);
      const g = R.graphs[0], t = g.tree;
      let node = -1;
      for (let i = 0; i < t.n; i++) if (R.meta.names[t.name[i]] === frame) node = i;
      R.meta.events.forEach((ev, e) => {
        g.setEvent(e);
        out.tips[ev[0]] = node < 0 ? 'no frame ' + frame : g.tipText(node);
        g.search('.');
        out.matched[ev[0]] = g.matchedText.textContent;
        g.search('');
      });
      return out;
    }, frame);
    await page.screenshot({ path: shot, fullPage: false });
    console.log(JSON.stringify(Object.assign({ errors }, result)));
  } finally {
    await browser.close();
  }
})().catch((e) => { console.log(JSON.stringify({ errors: ['driver: ' + e.message] })); process.exit(2); });
