// The dashboard's script: buttons and forms with data-post call the control
// API with a JSON body; a click on a row opens its detail beside the list
// (?open=ID); the page re-renders itself (fetch + swap of <main>) when the
// server-sent event stream says something changed. No framework.
(function () {
  'use strict';
  var flashTimer;
  function flash(text, isError) {
    var el = document.getElementById('flash');
    el.textContent = text;
    el.className = isError ? 'error' : '';
    el.hidden = false;
    clearTimeout(flashTimer);
    flashTimer = setTimeout(function () { el.hidden = true; }, isError ? 8000 : 2500);
  }

  // The JSON body of a form: named inputs; data-cents turns dollars into
  // cents; data-list makes a one-element list; checkboxes are booleans;
  // empty text fields are left out. A form with data-raw="NAME" sends the
  // text of its field NAME as the body, as it is.
  function formBody(form) {
    var raw = form.getAttribute('data-raw');
    if (raw) return form.querySelector('[name="' + raw + '"]').value;
    var body = {};
    form.querySelectorAll('input[name], select[name]').forEach(function (el) {
      if (el.type === 'checkbox') { body[el.name] = el.checked; return; }
      var v = el.value.trim();
      if (v === '') return;
      if (el.hasAttribute('data-cents')) {
        var n = Number(v);
        body[el.name] = isFinite(n) ? Math.round(n * 100) : v;
        return;
      }
      body[el.name] = el.hasAttribute('data-list') ? [v] : v;
    });
    return body;
  }

  function post(url, body, button) {
    if (button) button.disabled = true;
    return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body || {}) })
      .then(function (res) {
        return res.json().catch(function () { return {}; }).then(function (data) {
          if (!res.ok) {
            var msg = (data.error && data.error.en) || ('HTTP ' + res.status);
            throw new Error(msg + (data.error_code ? ' (' + res.status + ' / ' + data.error_code + ')' : ''));
          }
          return data;
        });
      })
      .finally(function () { if (button) button.disabled = false; });
  }

  function money(cents) { return (cents / 100).toFixed(2); }
  // when writes an instant as the pages do (and Wait's failure message):
  // UTC, then the banking calendar's Eastern time.
  function when(ms) {
    var d = new Date(ms), p = {};
    new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short', hour: '2-digit', minute: '2-digit',
      hourCycle: 'h23', timeZoneName: 'short' }).formatToParts(d).forEach(function (x) { p[x.type] = x.value; });
    return d.toISOString().replace(/\.?0+Z$/, 'Z') + ' (' + p.weekday + ' ' + p.hour + ':' + p.minute + ' ' + p.timeZoneName + ')';
  }
  // describe is the flash of an answer; done, a button's data-done, says
  // what it did (a review: "SSN marked valid"), then the user's permission.
  function describe(data, done) {
    if (done) return done + (data.user && data.user.permission ? ' · permission ' + data.user.permission : '');
    if (data.transaction) {
      var t = data.transaction;
      return 'Transaction ' + t._id.slice(-6) + ': ' + t.status + (t.code ? ' ' + t.code : '');
    }
    if (data.node) return 'Node ' + data.node.nickname + ': available ' + money(data.node.available_cents) + ', current ' + money(data.node.balance_cents);
    if (data.user) return 'User ' + ((data.user.legal_names || [])[0] || data.user._id) + ' created';
    if (data.world) {
      var w = data.world, n = function (o) { return Object.keys(o || {}).length; };
      return 'World loaded: ' + n(w.users) + ' users, ' + n(w.nodes) + ' nodes, ' + n(w.transactions) + ' transactions';
    }
    if (data.now) return 'Clock: ' + when(data.now);
    return 'Done';
  }

  // The detail pane: ?open=ID in the page's own URL, so that a reload, a
  // live refresh and the back button keep it.
  function openDetail(id) {
    var url = new URL(location.href);
    if (id) url.searchParams.set('open', id); else url.searchParams.delete('open');
    if (url.href === location.href) return;
    history.pushState(null, '', url.href);
    refresh(true);
  }
  window.addEventListener('popstate', function () { refresh(true); });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape' && document.getElementById('pane') && !typing()) openDetail('');
  });

  document.addEventListener('click', function (e) {
    var b = e.target.closest('button[data-post]');
    if (b) {
      e.preventDefault();
      var confirmText = b.getAttribute('data-confirm');
      if (confirmText && !window.confirm(confirmText)) return;
      var body = b.getAttribute('data-body');
      post(b.getAttribute('data-post'), body ? JSON.parse(body) : {}, b)
        .then(function (data) { flash(describe(data, b.getAttribute('data-done'))); refresh(); })
        .catch(function (err) { flash(err.message, true); });
      return;
    }
    var c = e.target.closest('button[data-check-form]');
    if (c) {
      e.preventDefault();
      var form = c.form, out = form.querySelector('.verdict');
      post(form.getAttribute('data-check'), formBody(form), c)
        .then(function (data) {
          out.className = 'verdict ' + (data.decline_code ? 'bad' : 'ok');
          out.textContent = data.decline_code ? 'would decline: ' + data.decline_code + ' ' + data.meaning : 'would be approved';
        })
        .catch(function (err) { out.className = 'verdict bad'; out.textContent = err.message; });
      return;
    }
    if (e.target.closest('[data-close]')) { e.preventDefault(); openDetail(''); return; }
    var link = e.target.closest('a[data-open-link]');
    if (link && !e.metaKey && !e.ctrlKey) { e.preventDefault(); openDetail(link.getAttribute('data-open-link')); return; }
    // A row opens its detail, unless the click was on something of its own.
    var row = e.target.closest('tr[data-open]');
    if (row && !e.target.closest('a, button, input, select, textarea, label') && !e.metaKey && !e.ctrlKey) {
      if (window.getSelection && String(window.getSelection()).length > 0) return; // selecting an id to copy
      openDetail(row.getAttribute('data-open'));
    }
  });

  document.addEventListener('change', function (e) {
    var input = e.target.closest('input[type=file][data-load-into]');
    if (!input || !input.files[0]) return;
    var target = input.form.querySelector('[name="' + input.getAttribute('data-load-into') + '"]');
    input.files[0].text().then(function (text) { target.value = text; });
  });

  document.addEventListener('submit', function (e) {
    var form = e.target.closest('form[data-post]');
    if (!form) return;
    e.preventDefault();
    var out = form.querySelector('.verdict');
    post(form.getAttribute('data-post'), formBody(form), form.querySelector('button[type=submit]'))
      .then(function (data) {
        var t = data.transaction;
        if (out && t) {
          var declined = t.status === 'RETURNED';
          out.className = 'verdict ' + (declined ? 'bad' : 'ok');
          out.textContent = declined ? 'declined: ' + t.code + ' ' + (t.timeline[t.timeline.length - 1].note || '') : 'approved: ' + t.status;
        }
        flash(describe(data));
        var made = form.getAttribute('data-then') === 'open' && (data.node || data.user);
        if (made) { form.reset(); openDetail(made._id); return; }
        if (form.getAttribute('data-raw')) form.reset();
        refresh();
      })
      .catch(function (err) {
        if (out) { out.className = 'verdict bad'; out.textContent = err.message; }
        flash(err.message, true);
      });
  });

  // Live updates. A refresh is put off while the user types in <main>,
  // unless it was asked for (opening a detail).
  var running = false, again = false, waiting = false;
  function typing() {
    var a = document.activeElement;
    return a && a.closest('main') && /^(INPUT|SELECT|TEXTAREA)$/.test(a.tagName) && a.type !== 'checkbox' && a.type !== 'file';
  }
  // afterEditing refreshes once the focus leaves the form being filled in:
  // moving on to another of its fields or its button (a click's mousedown
  // moves the focus before the click) is still filling it in, and a
  // refresh then would swap the form for an empty one under the click.
  function afterEditing(el) {
    el.addEventListener('blur', function (e) {
      var next = e.relatedTarget;
      if (next && el.form && next.form === el.form) { afterEditing(next); return; }
      waiting = false;
      refresh();
    }, { once: true });
  }
  function putOff() {
    if (!waiting) {
      waiting = true;
      afterEditing(document.activeElement);
    }
  }
  function refresh(asked) {
    if (!asked && typing()) { putOff(); return; }
    if (running) { again = true; return; }
    running = true;
    var href = location.href;
    fetch(href, { headers: { Accept: 'text/html' } })
      .then(function (res) { return res.text(); })
      .then(function (html) {
        if (href !== location.href) again = true;
        else if (!asked && typing()) putOff(); // typing began while the page was fetched
        else swap(new DOMParser().parseFromString(html, 'text/html'), asked);
      })
      .catch(function () {})
      .finally(function () { running = false; if (again) { again = false; refresh(); } });
  }
  function swap(doc, opened) {
    var main = document.querySelector('main'), next = doc.querySelector('main');
    if (!main || !next) return;
    var open = {}, verdicts = {}, values = {};
    main.querySelectorAll('details[id]').forEach(function (d) { open[d.id] = d.open; });
    main.querySelectorAll('form[data-post]').forEach(function (f) {
      var o = f.querySelector('.verdict');
      if (o && o.textContent) verdicts[f.getAttribute('data-post')] = [o.className, o.textContent];
      f.querySelectorAll('textarea[name]').forEach(function (t) { values[f.getAttribute('data-post') + ' ' + t.name] = t.value; });
    });
    next.querySelectorAll('details[id]').forEach(function (d) { if (d.id in open) d.open = open[d.id]; });
    next.querySelectorAll('form[data-post]').forEach(function (f) {
      var v = verdicts[f.getAttribute('data-post')], o = f.querySelector('.verdict');
      if (v && o) { o.className = v[0]; o.textContent = v[1]; }
      f.querySelectorAll('textarea[name]').forEach(function (t) {
        var k = f.getAttribute('data-post') + ' ' + t.name;
        if (k in values) t.value = values[k];
      });
    });
    var pane = main.querySelector('#pane'), nextPane = next.querySelector('#pane');
    var samePane = pane && nextPane && pane.getAttribute('data-open') === nextPane.getAttribute('data-open');
    var paneScroll = samePane ? pane.scrollTop : 0;
    main.replaceWith(next);
    if (nextPane) nextPane.scrollTop = paneScroll;
    mark();
    if (opened && nextPane && !samePane && window.matchMedia('(max-width: 900px)').matches) nextPane.scrollIntoView();
    var clock = document.getElementById('clock'), nextClock = doc.getElementById('clock');
    if (clock && nextClock) clock.replaceWith(nextClock);
  }
  // mark highlights the row whose detail is open.
  function mark() {
    var pane = document.getElementById('pane'), id = pane && pane.getAttribute('data-open');
    document.querySelectorAll('main .list tr[data-open]').forEach(function (tr) {
      tr.classList.toggle('sel', tr.getAttribute('data-open') === id);
    });
  }
  mark();

  if (window.EventSource) {
    var timer;
    var es = new EventSource(document.documentElement.getAttribute('data-base') + 'ui/events');
    es.addEventListener('change', function () {
      clearTimeout(timer);
      timer = setTimeout(refresh, 50);
    });
  }
})();
