(function () {
  'use strict';
  window.__errors = [];
  window.addEventListener('error', function (e) { window.__errors.push(String(e.message || e)); });

  var data = JSON.parse(document.getElementById('page-data').textContent);
  var surfaces = {};
  data.surfaces.forEach(function (s) { surfaces[s.name] = s; });

  function visible(text) {
    return String(text).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, function (c) {
      var code = c.charCodeAt(0);
      return String.fromCharCode(code === 127 ? 0x2421 : 0x2400 + code);
    });
  }
  function fmt(n) {
    if (n === null || n === undefined || Number.isNaN(n)) { return '-'; }
    if (Number.isInteger(n)) { return n.toLocaleString('en-US'); }
    return n.toLocaleString('en-US', { maximumFractionDigits: 4 });
  }
  function signed(n) {
    if (n === null || n === undefined) { return '-'; }
    return (n > 0 ? '+' : n < 0 ? '\u2212' : '') + fmt(Math.abs(n));
  }

  // -- sortable, filterable tables --------------------------------------------------------------
  function sortRows(table) {
    var col = table.dataset.sortColumn;
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var dir = table.dataset.sortDir === 'descending' ? -1 : 1;
    var index = col === undefined ? -1 : Number(col);
    var numeric = index >= 0 && table.tHead.rows[0].cells[index].dataset.type === 'num';
    rows.sort(function (a, b) {
      if (index < 0) { return Number(a.dataset.index) - Number(b.dataset.index); }
      var x = a.cells[index].dataset.value, y = b.cells[index].dataset.value;
      var empty = (x === '' ? 1 : 0) - (y === '' ? 1 : 0);
      if (empty !== 0) { return empty; }
      var order = numeric ? Number(x) - Number(y) : x.localeCompare(y, 'en', { numeric: true });
      return order !== 0 ? dir * order : Number(a.dataset.index) - Number(b.dataset.index);
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  function filterRows(table) {
    var box = document.querySelector('[data-filter-for="' + table.id + '"]');
    var words = (box ? box.value : '').toLowerCase().split(/\s+/).filter(Boolean);
    var rows = Array.prototype.slice.call(table.tBodies[0].rows), shown = 0;
    rows.forEach(function (row) {
      var text = row.textContent.toLowerCase();
      var keep = words.every(function (w) { return text.indexOf(w) >= 0; });
      row.hidden = !keep;
      if (keep) { shown += 1; }
    });
    var count = document.querySelector('[data-count-for="' + table.id + '"]');
    if (count) {
      count.textContent = (words.length ? fmt(shown) + ' of ' : '') + fmt(rows.length) + ' rows';
      count.dataset.shown = String(shown);
    }
    table.dataset.shown = String(shown);
  }
  function refresh(table) { sortRows(table); filterRows(table); }
  function setUp(table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
      th.querySelector('button.sort').addEventListener('click', function () {
        var same = table.dataset.sortColumn === String(index);
        var dir = same && table.dataset.sortDir === 'ascending' ? 'descending' : 'ascending';
        table.dataset.sortColumn = String(index);
        table.dataset.sortDir = dir;
        Array.prototype.forEach.call(table.tHead.rows[0].cells, function (other) {
          other.setAttribute('aria-sort', other === th ? dir : 'none');
        });
        sortRows(table);
      });
    });
    var box = document.querySelector('[data-filter-for="' + table.id + '"]');
    if (box) { box.addEventListener('input', function () { filterRows(table); }); }
    filterRows(table);
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.data'), setUp);

  // -- the tool dialog ------------------------------------------------------------------------------
  var dialog = document.getElementById('tool-dialog');
  function findTool(surface, name) {
    var s = surfaces[surface];
    if (!s) { return null; }
    for (var i = 0; i < s.tool_list.length; i += 1) {
      if (s.tool_list[i].name === name) { return s.tool_list[i]; }
    }
    return null;
  }
  function openTool(surface, name) {
    var tool = findTool(surface, name);
    if (!tool) { return; }
    dialog.dataset.surface = surface;
    dialog.dataset.tool = name;
    document.getElementById('tool-dialog-title').textContent = visible(surface + ': ' + name);
    document.getElementById('tool-dialog-sizes').textContent =
      fmt(tool.chars) + ' chars, ' + fmt(tool.tokens) + ' tokens, ' + fmt(tool.marginal_tokens) + ' marginal tokens';
    document.getElementById('tool-dialog-description').textContent =
      tool.description === null ? '(no description)' : visible(tool.description);
    document.getElementById('tool-dialog-schema').textContent =
      tool.input_schema === null ? '(no inputSchema)' : visible(JSON.stringify(tool.input_schema, null, 2));
    document.getElementById('tool-dialog-wire').textContent = visible(tool.wire);
    if (!dialog.open) { dialog.showModal(); }
  }
  document.addEventListener('click', function (event) {
    var link = event.target.closest ? event.target.closest('button.tool-link') : null;
    if (link) { openTool(link.dataset.surface, link.dataset.tool); }
  });
  dialog.addEventListener('click', function (event) { if (event.target === dialog) { dialog.close(); } });

  // -- two surfaces side by side -------------------------------------------------------------------
  function row(cells, attrs) {
    var tr = document.createElement('tr');
    Object.keys(attrs || {}).forEach(function (k) { tr.setAttribute(k, attrs[k]); });
    cells.forEach(function (c) {
      var td = document.createElement('td');
      var numeric = typeof c === 'number' || c === null;
      td.className = numeric ? 'num' : 'text';
      if (c !== null && typeof c === 'object' && c.tool) {
        var button = document.createElement('button');
        button.type = 'button';
        button.className = 'tool-link';
        button.dataset.surface = c.surface;
        button.dataset.tool = c.tool;
        button.textContent = visible(c.tool);
        td.className = 'text';
        td.appendChild(button);
        td.dataset.value = c.tool;
      } else if (numeric) {
        td.textContent = fmt(c);
        td.dataset.value = c === null ? '' : String(c);
      } else {
        td.textContent = visible(c);
        td.dataset.value = String(c);
      }
      tr.appendChild(td);
    });
    return tr;
  }
  function toolsOf(name) {
    var out = {};
    (surfaces[name] ? surfaces[name].tool_list : []).forEach(function (t) { out[t.name] = t; });
    return out;
  }
  function whatChanged(x, y) {
    var parts = [];
    if (x.description !== y.description) { parts.push('description'); }
    if (JSON.stringify(x.input_schema) !== JSON.stringify(y.input_schema)) { parts.push('inputSchema'); }
    if (!parts.length) { parts.push('other fields'); }
    return parts.join(', ');
  }
  function diff(a, b) {
    return a === null || b === null ? null : b - a;
  }
  function compare() {
    var selectA = document.getElementById('compare-a'), selectB = document.getElementById('compare-b');
    if (!selectA) { return; }
    var a = selectA.value, b = selectB.value, toolsA = toolsOf(a), toolsB = toolsOf(b);
    var names = Object.keys(toolsA).concat(Object.keys(toolsB).filter(function (n) { return !(n in toolsA); }));
    var tools = document.getElementById('compare-tools'), changes = document.getElementById('compare-diff');
    var heads = tools.tHead.rows[0].cells;
    [['chars ', 1], ['chars ', 2], ['tokens ', 4], ['tokens ', 5]].forEach(function (h, i) {
      heads[h[1]].querySelector('button').textContent = h[0] + (i % 2 === 0 ? a : b);
    });
    heads[3].querySelector('button').textContent = 'chars ' + b + ' \u2212 ' + a;
    heads[6].querySelector('button').textContent = 'tokens ' + b + ' \u2212 ' + a;
    var toolRows = [], changeRows = [], counts = { added: 0, removed: 0, changed: 0, unchanged: 0 };
    names.forEach(function (name, index) {
      var x = toolsA[name] || null, y = toolsB[name] || null;
      var link = { tool: name, surface: y ? b : a };
      var cA = x ? x.chars : null, cB = y ? y.chars : null, tA = x ? x.tokens : null, tB = y ? y.tokens : null;
      toolRows.push(row([link, cA, cB, diff(cA, cB), tA, tB, diff(tA, tB)],
        { 'data-index': String(index), 'data-tool': name }));
      var change = !x ? 'added' : !y ? 'removed' : x.wire !== y.wire ? 'changed' : 'unchanged';
      counts[change] += 1;
      if (change !== 'unchanged') {
        var what = change === 'changed' ? whatChanged(x, y) : change === 'added' ? 'new tool' : 'tool gone';
        changeRows.push(row([change, link, what, cA, cB, cB === null ? -cA : cA === null ? cB : cB - cA],
          { 'data-index': String(changeRows.length), 'data-tool': name, 'data-change': change }));
      }
    });
    [[tools, toolRows], [changes, changeRows]].forEach(function (pair) {
      var body = pair[0].tBodies[0];
      while (body.firstChild) { body.removeChild(body.firstChild); }
      pair[1].forEach(function (r) { body.appendChild(r); });
      refresh(pair[0]);
    });
    var sa = surfaces[a], sb = surfaces[b];
    var summary = document.getElementById('compare-summary');
    summary.textContent = visible(a) + ': ' + fmt(sa.tools) + ' tools, ' + fmt(sa.chars) + ' chars, ' + fmt(sa.tokens) +
      ' tokens. ' + visible(b) + ': ' + fmt(sb.tools) + ' tools, ' + fmt(sb.chars) + ' chars, ' + fmt(sb.tokens) +
      ' tokens. Difference: ' + signed(sb.chars - sa.chars) + ' chars' +
      (sa.chars ? ' (' + signed(Math.round(1000 * (sb.chars - sa.chars) / sa.chars) / 10) + ' %)' : '') +
      (sa.tokens !== null && sb.tokens !== null ? ', ' + signed(sb.tokens - sa.tokens) + ' tokens.' : '.');
    var countLine = document.getElementById('compare-counts');
    countLine.textContent = counts.added + ' added, ' + counts.removed + ' removed, ' + counts.changed + ' changed, ' +
      counts.unchanged + ' unchanged.';
    ['added', 'removed', 'changed', 'unchanged'].forEach(function (k) { countLine.dataset[k] = String(counts[k]); });
    document.getElementById('compare-diff-title').textContent = 'What changed from ' + visible(a) + ' to ' + visible(b);
    var section = document.getElementById('compare');
    section.dataset.a = a;
    section.dataset.b = b;
  }
  ['compare-a', 'compare-b'].forEach(function (id) {
    var select = document.getElementById(id);
    if (select) { select.addEventListener('change', compare); }
  });
  compare();

  // -- transcripts ----------------------------------------------------------------------------------
  var runFilter = document.getElementById('filter-runs');
  function filterRuns() {
    var words = runFilter.value.toLowerCase().split(/\s+/).filter(Boolean);
    var runs = Array.prototype.slice.call(document.querySelectorAll('details.run')), shown = 0;
    runs.forEach(function (run) {
      var text = run.querySelector('summary').textContent.toLowerCase() + ' ' + run.id.toLowerCase();
      var keep = words.every(function (w) { return text.indexOf(w) >= 0; });
      run.hidden = !keep;
      if (keep) { shown += 1; }
    });
    document.getElementById('count-runs').textContent = (words.length ? shown + ' of ' : '') + runs.length + ' runs';
  }
  if (runFilter) { runFilter.addEventListener('input', filterRuns); filterRuns(); }
  function openFromHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id ? document.getElementById(id) : null;
    if (target && target.tagName === 'DETAILS') { target.open = true; target.scrollIntoView(); }
  }
  window.addEventListener('hashchange', openFromHash);
  openFromHash();

  window.addEventListener('load', function () {
    var images = Array.prototype.slice.call(document.images);
    var loaded = images.filter(function (i) { return i.complete && i.naturalWidth > 0; }).length;
    document.body.setAttribute('data-charts', loaded + '/' + images.length);
    document.body.setAttribute('data-errors', String(window.__errors.length));
  });
  document.body.setAttribute('data-ready', '1');
})();
