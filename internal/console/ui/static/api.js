// The API page: renders /_fake/openapi.json (the OpenAPI 3.1 document of
// the v3.1 API) as operations by tag, each with its rules, credentials,
// parameters, request body and answers, and the schemas they name. Self
// contained: nothing is fetched but the document. No framework.
(function () {
  'use strict';
  var doc;

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') e.textContent = attrs[k]; else e.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return e;
  }

  // ref resolves a local $ref ("#/components/schemas/User").
  function ref(r) {
    return r.replace(/^#\//, '').split('/').reduce(function (o, k) { return o && o[k.replace(/~1/g, '/').replace(/~0/g, '~')]; }, doc);
  }
  function refName(r) { return r.split('/').pop(); }

  function typeOf(s) {
    if (!s) return 'any';
    if (s.$ref) return refName(s.$ref);
    if (s.const !== undefined) return JSON.stringify(s.const);
    if (s.allOf) return s.allOf.map(typeOf).join(' & ');
    if (s.oneOf) return s.oneOf.map(typeOf).join(' | ');
    if (s.anyOf) return s.anyOf.map(typeOf).join(' | ');
    var t = Array.isArray(s.type) ? s.type.join(' | ') : (s.type || 'any');
    if (t === 'array') return typeOf(s.items) + '[]';
    return t;
  }

  // schemaTree renders a schema's properties, following $ref and allOf to
  // a depth, so that a page of nested objects stays readable.
  function schemaTree(s, depth) {
    var ul = el('ul');
    if (!s || depth > 6) return ul;
    if (s.$ref) {
      var li = el('li', {}, [el('a', {href: '#schema-' + refName(s.$ref), text: refName(s.$ref)})]);
      ul.appendChild(li);
      return ul;
    }
    (s.allOf || []).forEach(function (p) {
      var r = p.$ref ? ref(p.$ref) : p;
      if (p.$ref) ul.appendChild(el('li', {class: 'type', text: 'all of ' + refName(p.$ref) + ':'}));
      ul.appendChild(schemaTree(r, depth + 1));
    });
    ['oneOf', 'anyOf'].forEach(function (k) {
      (s[k] || []).forEach(function (p, i) {
        ul.appendChild(el('li', {class: 'type', text: (k === 'oneOf' ? 'one of' : 'any of') + ' #' + (i + 1) + ': ' + typeOf(p)}));
        if (!p.$ref) ul.appendChild(schemaTree(p, depth + 1));
      });
    });
    var req = s.required || [];
    Object.keys(s.properties || {}).forEach(function (name) {
      var p = s.properties[name];
      var li = el('li', {}, [
        el('b', {text: name}), req.indexOf(name) >= 0 ? el('span', {class: 'req', text: '*'}) : null, ' ',
        p.$ref ? el('a', {href: '#schema-' + refName(p.$ref), text: refName(p.$ref)}) : el('span', {class: 'type', text: typeOf(p)}),
        p.enum ? el('span', {class: 'enum', text: ' ' + p.enum.slice(0, 12).map(function (v) { return JSON.stringify(v); }).join(', ') + (p.enum.length > 12 ? ', … (' + p.enum.length + ')' : '')}) : null,
        p.description ? el('span', {class: 'desc', text: ' — ' + p.description}) : null
      ]);
      var inner = p.type === 'array' && p.items && !p.items.$ref ? p.items : p;
      if (!inner.$ref && (inner.properties || inner.allOf)) li.appendChild(schemaTree(inner, depth + 1));
      ul.appendChild(li);
    });
    if (s.additionalProperties === false || s.unevaluatedProperties === false) {
      ul.appendChild(el('li', {class: 'type', text: '(no other fields)'}));
    }
    return ul;
  }

  function schemaBlock(s) {
    return el('div', {class: 'schema'}, [el('span', {class: 'type', text: typeOf(s)}), schemaTree(s, 0)]);
  }

  function operation(path, method, op) {
    var d = el('details', {class: 'op', id: op.operationId || (method + path)});
    d.appendChild(el('summary', {}, [el('span', {class: 'method m-' + method, text: method.toUpperCase()}), path, el('span', {class: 'summary', text: op.summary || ''})]));
    if (op.description) d.appendChild(el('pre', {class: 'text', text: op.description}));
    var sec = op.security || doc.security || [];
    var needs = sec.map(function (alt) {
      var names = Object.keys(alt);
      return names.length ? names.map(function (n) { return n + (alt[n].length ? ' ' + alt[n].join(', ') : ''); }).join(' and ') : 'nothing';
    });
    d.appendChild(el('p', {}, [el('b', {text: 'Needs: '}), needs.join('; or ') || 'nothing']));
    var params = (op.parameters || []).map(function (p) { return p.$ref ? ref(p.$ref) : p; });
    if (params.length) {
      var t = el('table', {}, [el('tr', {}, [el('th', {text: 'parameter'}), el('th', {text: 'in'}), el('th', {text: 'type'}), el('th', {text: ''})])]);
      params.forEach(function (p) {
        t.appendChild(el('tr', {}, [el('td', {}, [el('code', {text: p.name}), p.required ? el('span', {class: 'req', text: '*'}) : null]),
          el('td', {text: p.in}), el('td', {class: 'type', text: typeOf(p.schema)}), el('td', {class: 'desc', text: p.description || ''})]));
      });
      d.appendChild(t);
    }
    if (op.requestBody) {
      var rb = op.requestBody.$ref ? ref(op.requestBody.$ref) : op.requestBody;
      Object.keys(rb.content || {}).forEach(function (ct) {
        d.appendChild(el('p', {}, [el('b', {text: 'Body'}), ' (' + ct + (rb.required ? ', required' : '') + ')']));
        d.appendChild(schemaBlock(rb.content[ct].schema));
      });
    }
    Object.keys(op.responses || {}).forEach(function (code) {
      var r = op.responses[code];
      var name = r.$ref ? refName(r.$ref) : '';
      if (r.$ref) r = ref(r.$ref);
      d.appendChild(el('p', {}, [el('b', {text: code}), ' ', name ? el('span', {class: 'type', text: name + ': '}) : null, r.description || '']));
      if (!name) {
        Object.keys(r.content || {}).forEach(function (ct) {
          if (r.content[ct].schema) d.appendChild(schemaBlock(r.content[ct].schema));
        });
      }
    });
    return d;
  }

  function render() {
    var main = document.getElementById('api');
    main.textContent = '';
    main.appendChild(el('h1', {text: doc.info.title}));
    if (doc.info.description) main.appendChild(el('pre', {class: 'text', text: doc.info.description}));
    var byTag = {};
    var tags = (doc.tags || []).map(function (t) { return t.name; });
    Object.keys(doc.paths).forEach(function (path) {
      Object.keys(doc.paths[path]).forEach(function (method) {
        var op = doc.paths[path][method];
        if (['get', 'put', 'post', 'delete', 'patch'].indexOf(method) < 0) return;
        var tag = (op.tags || ['other'])[0];
        if (tags.indexOf(tag) < 0) tags.push(tag);
        (byTag[tag] = byTag[tag] || []).push([path, method, op]);
      });
    });
    var toc = el('ul', {class: 'toc'});
    tags.forEach(function (tag) {
      (byTag[tag] || []).forEach(function (o) {
        toc.appendChild(el('li', {}, [el('a', {href: '#' + (o[2].operationId || o[1] + o[0]), text: o[1].toUpperCase() + ' ' + o[0]})]));
      });
    });
    main.appendChild(toc);
    tags.forEach(function (tag) {
      var s = el('section', {class: 'api-tag'}, [el('h2', {text: tag})]);
      var info = (doc.tags || []).filter(function (t) { return t.name === tag; })[0];
      if (info && info.description) s.appendChild(el('p', {class: 'desc', text: info.description}));
      (byTag[tag] || []).forEach(function (o) { s.appendChild(operation(o[0], o[1], o[2])); });
      main.appendChild(s);
    });
    var schemas = el('section', {class: 'api-tag'}, [el('h2', {text: 'schemas'})]);
    Object.keys(doc.components.schemas).forEach(function (name) {
      var s = doc.components.schemas[name];
      var d = el('details', {class: 'op', id: 'schema-' + name}, [el('summary', {}, [name, el('span', {class: 'summary', text: s.description || ''})])]);
      d.appendChild(schemaBlock(s));
      schemas.appendChild(d);
    });
    main.appendChild(schemas);
    main.removeAttribute('aria-busy');
    if (location.hash) {
      var target = document.getElementById(location.hash.slice(1));
      if (target && target.tagName === 'DETAILS') { target.open = true; target.scrollIntoView(); }
    }
    document.addEventListener('click', function (e) {
      var a = e.target.closest && e.target.closest('a[href^="#"]');
      if (!a) return;
      var t = document.getElementById(a.getAttribute('href').slice(1));
      if (t && t.tagName === 'DETAILS') t.open = true;
    });
  }

  fetch('../../openapi.json', {credentials: 'same-origin'})
    .then(function (r) { if (!r.ok) throw new Error('GET /_fake/openapi.json: ' + r.status); return r.json(); })
    .then(function (d) { doc = d; render(); })
    .catch(function (err) {
      var main = document.getElementById('api');
      main.textContent = String(err);
      main.removeAttribute('aria-busy');
    });
}());
