/* The script embedded in every flame graph SVG: details on hover, zoom on
 * click ("Reset Zoom" to go back), search by regular expression (or
 * substring when the text is no valid expression) with the matched share
 * of the total. It reads everything it needs from the drawn frames: the
 * rectangles' geometry, the count in data-n, the name from <title>, and
 * the label, when it is not that name (--frame=short), from data-l.
 *
 * Embedded in the SVG by flamesvg.c: the Makefile turns this file into a
 * C string (tools/embed.sh), leaving out this opening comment. */
"use strict";
var cf = {frames: [], zoomed: null, term: null};
function cfInit(evt) {
  var doc = document, cfg = doc.getElementById('cfconfig');
  cf.xpad = +cfg.getAttribute('data-xpad');
  cf.width = +cfg.getAttribute('data-width');
  cf.total = +cfg.getAttribute('data-total');
  cf.inverted = cfg.getAttribute('data-inverted') === '1';
  cf.fontsize = +cfg.getAttribute('data-fontsize');
  cf.details = doc.getElementById('details');
  cf.matched = doc.getElementById('matched');
  cf.unzoom = doc.getElementById('unzoom');
  cf.search = doc.getElementById('search');
  cf.group = doc.getElementById('frames');
  var gs = cf.group.getElementsByTagName('g');
  for (var i = 0; i < gs.length; i++) {
    var g = gs[i], r = g.getElementsByTagName('rect')[0];
    var title = g.getElementsByTagName('title')[0].textContent;
    var n = g.getAttribute('data-n');
    var cut = title.lastIndexOf(' (' + n + ' ');
    var raw = cut >= 0 ? title.substring(0, cut) : title, label = g.getAttribute('data-l');
    g.cfIndex = i;
    cf.frames.push({g: g, rect: r, text: g.getElementsByTagName('text')[0],
      title: title, name: label !== null ? label : raw, raw: raw, n: +n,
      x: +r.getAttribute('x'), w: +r.getAttribute('width'),
      y: +r.getAttribute('y'), fill: r.getAttribute('fill')});
  }
  cf.group.addEventListener('mouseover', function (e) {
    var f = cfFrameOf(e.target);
    if (f) cfSetText(cf.details, f.title);
  });
  cf.group.addEventListener('mouseout', function () { cfSetText(cf.details, ' '); });
  cf.group.addEventListener('click', function (e) {
    var f = cfFrameOf(e.target);
    if (f) cfZoom(f);
  });
  cf.unzoom.addEventListener('click', cfUnzoom);
  cf.search.addEventListener('click', function () {
    if (cf.term !== null) cfResetSearch(); else cfSearchPrompt();
  });
  window.addEventListener('keydown', function (e) {
    if ((e.ctrlKey || e.metaKey) && (e.key === 'f' || e.keyCode === 70)) {
      e.preventDefault();
      cfSearchPrompt();
    } else if (e.key === 'Escape') {
      cfResetSearch();
      cfUnzoom();
    }
  });
  try {
    var s = new URLSearchParams(doc.location.search).get('s');
    if (s) cfSearch(s);
  } catch (err) { /* no location (e.g. embedded): no URL search */ }
}
function cfSetText(el, s) { el.textContent = s; }
function cfFrameOf(node) {
  for (; node && node !== cf.group; node = node.parentNode)
    if (node.cfIndex !== undefined) return cf.frames[node.cfIndex];
  return null;
}
function cfLabel(f, w) {
  var chars = Math.floor((w - 3) / (cf.fontsize * 0.59));
  if (chars < 3) return '';
  return f.name.length <= chars ? f.name : f.name.substring(0, chars - 2) + '..';
}
function cfPlace(f, x, w) {
  f.rect.setAttribute('x', x.toFixed(3));
  f.rect.setAttribute('width', w.toFixed(3));
  f.text.setAttribute('x', (x + 3).toFixed(3));
  cfSetText(f.text, cfLabel(f, w));
}
function cfShow(f, on) {
  if (on) f.g.classList.remove('hide'); else f.g.classList.add('hide');
}
function cfZoom(z) {
  var eps = 1e-6, full = cf.width - 2 * cf.xpad, ratio = full / z.w;
  cf.zoomed = z;
  cf.unzoom.classList.remove('hide');
  for (var i = 0; i < cf.frames.length; i++) {
    var f = cf.frames[i];
    var rootward = cf.inverted ? f.y < z.y : f.y > z.y;
    if (rootward && f.x <= z.x + eps && f.x + f.w >= z.x + z.w - eps) {
      cfPlace(f, cf.xpad, full);
      f.g.classList.add('parent');
      cfShow(f, true);
    } else if (!rootward && f.x >= z.x - eps && f.x + f.w <= z.x + z.w + eps) {
      cfPlace(f, cf.xpad + (f.x - z.x) * ratio, f.w * ratio);
      f.g.classList.remove('parent');
      cfShow(f, true);
    } else {
      cfShow(f, false);
    }
  }
}
function cfUnzoom() {
  cf.zoomed = null;
  cf.unzoom.classList.add('hide');
  for (var i = 0; i < cf.frames.length; i++) {
    var f = cf.frames[i];
    cfPlace(f, f.x, f.w);
    f.g.classList.remove('parent');
    cfShow(f, true);
  }
}
function cfSearchPrompt() {
  var term = window.prompt('Search for (regular expression):', cf.term || '');
  if (term) cfSearch(term);
}
function cfSearch(term) {
  var re = null;
  try { re = new RegExp(term); } catch (err) { re = null; }
  var hits = [];
  for (var i = 0; i < cf.frames.length; i++) {
    var f = cf.frames[i];
    var hit = re ? re.test(f.name) || re.test(f.raw)
                 : f.name.indexOf(term) >= 0 || f.raw.indexOf(term) >= 0;
    f.rect.setAttribute('fill', hit ? 'rgb(230,0,230)' : f.fill);
    if (hit) hits.push(f);
  }
  /* A match inside another match is counted once: frames nest by range. */
  hits.sort(function (a, b) { return a.x - b.x || b.w - a.w; });
  var sum = 0, end = -Infinity;
  for (var j = 0; j < hits.length; j++) {
    if (hits[j].x + 1e-6 >= end) {
      sum += hits[j].n;
      end = hits[j].x + hits[j].w;
    }
  }
  cf.term = term;
  cf.matchedShare = cf.total ? 100 * sum / cf.total : 0;
  cfSetText(cf.search, 'Reset Search');
  cfSetText(cf.matched, 'Matched: ' + cf.matchedShare.toFixed(2) + '% (' + hits.length
            + (hits.length === 1 ? ' frame)' : ' frames)'));
  return cf.matchedShare;
}
function cfResetSearch() {
  cf.term = null;
  for (var i = 0; i < cf.frames.length; i++)
    cf.frames[i].rect.setAttribute('fill', cf.frames[i].fill);
  cfSetText(cf.search, 'Search');
  cfSetText(cf.matched, ' ');
}
