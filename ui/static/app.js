// The dashboard's script: buttons and forms with data-post call the control
// API with a JSON body; the page re-renders itself (fetch + swap of <main>)
// when the server-sent event stream says something changed. No framework.
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
  // cents; checkboxes are booleans; empty text fields are left out.
  function formBody(form) {
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
      body[el.name] = v;
    });
    return body;
  }

  function post(url, body, button) {
    if (button) button.disabled = true;
    return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body || {}) })
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

  function describe(data) {
    if (data.transaction) {
      var t = data.transaction;
      return 'Transaction ' + t._id.slice(-6) + ': ' + t.status + (t.code ? ' ' + t.code : '');
    }
    if (data.now) return 'Clock: ' + new Date(data.now).toISOString().replace('.000Z', ' UTC').replace('T', ' ');
    return 'Done';
  }

  document.addEventListener('click', function (e) {
    var b = e.target.closest('button[data-post]');
    if (b) {
      e.preventDefault();
      var body = b.getAttribute('data-body');
      post(b.getAttribute('data-post'), body ? JSON.parse(body) : {}, b)
        .then(function (data) { flash(describe(data)); refresh(); })
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
    }
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
          out.className = 'verdict ' + (t.status === 'RETURNED' ? 'bad' : 'ok');
          out.textContent = t.status === 'RETURNED' ? 'declined: ' + t.code + ' ' + (t.timeline[t.timeline.length - 1].note || '') : 'approved: ' + t.status;
        }
        flash(describe(data));
        refresh();
      })
      .catch(function (err) {
        if (out) { out.className = 'verdict bad'; out.textContent = err.message; }
        flash(err.message, true);
      });
  });

  // Live updates. A refresh is put off while the user types in <main>.
  var running = false, again = false, waiting = false;
  function typing() {
    var a = document.activeElement;
    return a && a.closest('main') && /^(INPUT|SELECT|TEXTAREA)$/.test(a.tagName) && a.type !== 'checkbox';
  }
  function refresh() {
    if (typing()) {
      if (!waiting) {
        waiting = true;
        document.activeElement.addEventListener('blur', function () { waiting = false; refresh(); }, { once: true });
      }
      return;
    }
    if (running) { again = true; return; }
    running = true;
    fetch(location.href, { headers: { Accept: 'text/html' } })
      .then(function (res) { if (!res.ok) throw new Error('HTTP ' + res.status); return res.text(); })
      .then(function (html) { swap(new DOMParser().parseFromString(html, 'text/html')); })
      .catch(function () {})
      .finally(function () { running = false; if (again) { again = false; refresh(); } });
  }
  function swap(doc) {
    var main = document.querySelector('main'), next = doc.querySelector('main');
    if (!main || !next) return;
    var open = {}, verdicts = {};
    main.querySelectorAll('details[id]').forEach(function (d) { open[d.id] = d.open; });
    main.querySelectorAll('form[data-post]').forEach(function (f) {
      var o = f.querySelector('.verdict');
      if (o && o.textContent) verdicts[f.getAttribute('data-post')] = [o.className, o.textContent];
    });
    next.querySelectorAll('details[id]').forEach(function (d) { if (d.id in open) d.open = open[d.id]; });
    next.querySelectorAll('form[data-post]').forEach(function (f) {
      var v = verdicts[f.getAttribute('data-post')], o = f.querySelector('.verdict');
      if (v && o) { o.className = v[0]; o.textContent = v[1]; }
    });
    main.replaceWith(next);
    var clock = document.getElementById('clock'), nextClock = doc.getElementById('clock');
    if (clock && nextClock) clock.replaceWith(nextClock);
  }

  if (window.EventSource) {
    var timer;
    var es = new EventSource('/_fake/ui/events');
    es.addEventListener('change', function () {
      clearTimeout(timer);
      timer = setTimeout(refresh, 50);
    });
  }
})();
