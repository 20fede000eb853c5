// deskgate's API reference page: renders the server's /openapi.json with the DOM alone. No text
// of the document is ever parsed as HTML: Markdown becomes elements and text nodes.
(() => {
  const script = document.currentScript;
  const documentUrl = script?.dataset.document ?? '/openapi.json';
  const root = document.getElementById('reference');
  /** The key typed into the page: kept in this variable only, never stored. */
  let apiKey = '';

  /** An element with attributes and children (strings become text nodes). */
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes ?? {})) {
      if (value === undefined || value === false) continue;
      if (name === 'text') node.textContent = value;
      else node.setAttribute(name, value === true ? '' : value);
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      node.append(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }

  // --- Markdown, a safe subset: paragraphs, headings, lists, fenced code, `code`, **bold**, links.

  const SAFE_LINK = /^(?:https?:\/\/|\/|#)/;

  function inline(text) {
    const nodes = [];
    const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
    let at = 0;
    for (const match of text.matchAll(pattern)) {
      if (match.index > at) nodes.push(text.slice(at, match.index));
      const [, code, bold, label, href] = match;
      if (code !== undefined) nodes.push(el('code', { text: code }));
      else if (bold !== undefined) nodes.push(el('strong', {}, ...inline(bold)));
      else if (SAFE_LINK.test(href))
        nodes.push(el('a', { href, rel: 'noopener noreferrer' }, label));
      else nodes.push(label);
      at = match.index + match[0].length;
    }
    if (at < text.length) nodes.push(text.slice(at));
    return nodes;
  }

  /** Markdown to a fragment. `skipCode(text)` drops fenced blocks the page shows otherwise. */
  function markdown(source, skipCode = () => false) {
    const fragment = document.createDocumentFragment();
    const lines = source.split('\n');
    let paragraph = [];
    let list;
    const flush = () => {
      if (paragraph.length) fragment.append(el('p', {}, ...inline(paragraph.join(' '))));
      paragraph = [];
      list = undefined;
    };
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (line.startsWith('```')) {
        flush();
        const code = [];
        for (i++; i < lines.length && !lines[i].startsWith('```'); i++) code.push(lines[i]);
        const text = code.join('\n');
        if (!skipCode(text)) fragment.append(el('pre', {}, el('code', { text })));
        continue;
      }
      const heading = /^(#{1,6})\s+(.*)$/.exec(line);
      const item = /^\s*(?:[-*]|(\d+)\.)\s+(.*)$/.exec(line);
      if (heading) {
        flush();
        fragment.append(el(`h${Math.min(6, heading[1].length + 2)}`, {}, ...inline(heading[2])));
      } else if (item) {
        if (paragraph.length) flush();
        const tag = item[1] === undefined ? 'ul' : 'ol';
        if (!list || list.tagName.toLowerCase() !== tag) {
          list = el(tag);
          fragment.append(list);
        }
        list.append(el('li', {}, ...inline(item[2])));
      } else if (line.trim() === '') {
        flush();
      } else if (list && /^\s+/.test(line)) {
        list.lastElementChild?.append(' ', ...inline(line.trim()));
      } else {
        list = undefined;
        paragraph.push(line.trim());
      }
    }
    flush();
    return fragment;
  }

  // --- Reading the document.

  function resolve(doc, schema) {
    let current = schema;
    while (current?.$ref) {
      current = current.$ref
        .slice(2)
        .split('/')
        .reduce((node, key) => node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
    }
    return current ?? {};
  }

  function typeOf(doc, schema) {
    const s = resolve(doc, schema);
    if (s.const !== undefined) return JSON.stringify(s.const);
    if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
    const choices = s.anyOf ?? s.oneOf;
    if (choices) return [...new Set(choices.map((c) => typeOf(doc, c)))].join(' or ');
    if (s.type === 'array') return `array of ${typeOf(doc, s.items ?? {})}`;
    return [s.type ?? 'any', s.format && `(${s.format})`].filter(Boolean).join(' ');
  }

  function limitsOf(doc, schema) {
    const s = resolve(doc, schema);
    const parts = [];
    if (s.minimum !== undefined || s.maximum !== undefined)
      parts.push(`${s.minimum ?? '…'} to ${s.maximum ?? '…'}`);
    if (s.minLength !== undefined || s.maxLength !== undefined)
      parts.push(`${s.minLength ?? 0}–${s.maxLength ?? '…'} characters`);
    if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
    return parts.join('; ');
  }

  /** The parameters schema for each `sort` of a request schema: [[sort or undefined, schema]]. */
  function parameterVariants(doc, requestRef) {
    const request = resolve(doc, { $ref: requestRef });
    const variants = (request.allOf ?? [])
      .map((rule) => [rule.if?.properties?.sort?.const, rule.then?.properties?.parameters])
      .filter(([sort, schema]) => sort !== undefined && schema);
    if (variants.length) return variants;
    // One `sort` value needs no if/then in the document: the request's enum names it.
    const sorts = request.properties?.sort?.enum;
    return [[sorts?.length === 1 ? sorts[0] : undefined, request.properties?.parameters ?? {}]];
  }

  function parameterTable(doc, schema) {
    const s = resolve(doc, schema);
    const required = new Set(s.required ?? []);
    const rows = Object.entries(s.properties ?? {}).map(([name, field]) => {
      const resolved = resolve(doc, field);
      return el(
        'tr',
        {},
        el('td', {}, el('code', { text: name })),
        el('td', { text: typeOf(doc, field) }),
        el('td', { text: required.has(name) ? 'required' : 'optional' }),
        el(
          'td',
          {},
          ...inline([resolved.description, limitsOf(doc, field)].filter(Boolean).join(' ')),
        ),
      );
    });
    if (!rows.length) return el('p', { class: 'muted', text: 'No parameters.' });
    return el(
      'table',
      { class: 'parameters' },
      el(
        'thead',
        {},
        el('tr', {}, ...['name', 'type', '', 'description'].map((h) => el('th', { text: h }))),
      ),
      el('tbody', {}, ...rows),
    );
  }

  /** The part of a method's Markdown that is about one operation (its `### name` section). */
  function sectionOf(description, operation) {
    const parts = description.split(/^(?=### )/m);
    const own = parts.find(
      (part) => part.startsWith(`### ${operation} `) || part.startsWith(`### ${operation}\n`),
    );
    return { intro: parts[0]?.startsWith('### ') ? '' : (parts[0] ?? ''), own: own ?? '' };
  }

  // --- Examples, curl lines and Try it out.

  const shellQuote = (text) => `'${text.replaceAll("'", "'\\''")}'`;

  function curlLine(method, url, body, write) {
    return [
      `curl --request ${method} ${shellQuote(url)}`,
      `  --header 'apikey: <API_KEY>'`,
      write ? `  --header 'Idempotency-Key: <NEW_VALUE_PER_USER>'` : undefined,
      `  --data ${shellQuote(JSON.stringify(body))}`,
    ]
      .filter(Boolean)
      .join(' \\\n');
  }

  function tryItOut(method, url, example, write) {
    const body = el('textarea', { rows: '6', spellcheck: 'false', 'aria-label': 'request body' });
    body.value = JSON.stringify(example, null, 2);
    const idempotency = write
      ? el('input', {
          type: 'text',
          'aria-label': 'Idempotency-Key',
          placeholder: 'Idempotency-Key (optional)',
        })
      : undefined;
    const send = el('button', { type: 'submit', text: 'Send' });
    const result = el('div', { class: 'result', 'aria-live': 'polite' });
    const form = el('form', { class: 'try' }, body, idempotency, send, result);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      result.replaceChildren(el('p', { class: 'muted', text: 'Sending…' }));
      // A browser cannot send a body on GET: a POST naming GET is the same call (decision 231).
      const headers = { 'Content-Type': 'application/json' };
      if (apiKey) headers.apikey = apiKey;
      if (method === 'GET') headers['X-HTTP-Method-Override'] = 'GET';
      if (idempotency?.value) headers['Idempotency-Key'] = idempotency.value;
      try {
        const reply = await fetch(url, {
          method: method === 'GET' ? 'POST' : method,
          headers,
          body: body.value,
          credentials: 'omit',
        });
        const text = await reply.text();
        let shown = text;
        try {
          shown = JSON.stringify(JSON.parse(text), null, 2);
        } catch {}
        const meta = ['X-Request-Id', 'X-Error-Code', 'Retry-After']
          .map((name) => [name, reply.headers.get(name)])
          .filter(([, value]) => value)
          .map(([name, value]) => `${name}: ${value}`);
        result.replaceChildren(
          el('p', { class: 'status', text: `${reply.status} ${reply.statusText}` }),
          meta.length ? el('p', { class: 'muted', text: meta.join(' · ') }) : undefined,
          shown ? el('pre', {}, el('code', { text: shown })) : undefined,
        );
      } catch (error) {
        result.replaceChildren(el('p', { class: 'status', text: `Not sent: ${error}` }));
      }
    });
    return form;
  }

  function examplesOf(requestBody, operation) {
    const examples = requestBody?.content?.['application/json']?.examples ?? {};
    return Object.values(examples).filter(
      (ex) => `${ex.value?.query}/${ex.value?.condition}` === operation,
    );
  }

  function errorList(doc, responses) {
    const items = Object.entries(responses)
      .filter(([status]) => status !== '200')
      .map(([status, response]) => {
        const r = resolve(doc, response);
        const content = r.content?.['application/json'];
        const codes = Object.keys(content?.examples ?? {});
        return el(
          'li',
          {},
          el('strong', { text: status }),
          ' ',
          ...inline(r.description ?? ''),
          codes.length ? ' ' : '',
          ...codes.flatMap((code, i) => [i ? ', ' : '', el('code', { text: code })]),
        );
      });
    return el('ul', { class: 'errors' }, ...items);
  }

  function operationSection(doc, url, entry, calls) {
    const order = entry.methods ?? [];
    calls.sort((a, b) => order.indexOf(a.method) - order.indexOf(b.method));
    const [{ method, definition }] = calls;
    const { own } = sectionOf(definition.description ?? '', entry.operation);
    const write = calls.some((c) =>
      (c.definition.parameters ?? []).some((p) => resolve(doc, p).name === 'Idempotency-Key'),
    );
    const id = `op-${entry.operation.replace('/', '-')}`;
    const section = el(
      'section',
      { class: 'operation', id },
      el(
        'h2',
        {},
        el('span', { class: 'methods', text: calls.map((c) => c.method).join(' · ') }),
        ' ',
        el('code', { text: entry.operation }),
      ),
      el('p', { class: 'scope' }, 'scope ', el('code', { text: entry.scope })),
    );
    section.append(markdown(own, (code) => code.includes('curl ')));

    section.append(el('h3', { text: 'Parameters' }));
    for (const [sort, schema] of parameterVariants(doc, entry.request)) {
      if (sort !== undefined)
        section.append(
          el(
            'h4',
            {},
            'sort ',
            el('code', { text: JSON.stringify(sort) }),
            sort === entry.defaultSort ? ' (default)' : '',
          ),
        );
      section.append(parameterTable(doc, schema));
    }

    section.append(el('h3', { text: 'Examples' }));
    for (const example of examplesOf(definition.requestBody, entry.operation)) {
      section.append(
        el(
          'div',
          { class: 'example' },
          el('h4', { text: (example.summary ?? '').replace(`${entry.operation}: `, '') }),
          el(
            'pre',
            { class: 'curl' },
            el('code', { text: curlLine(method, url, example.value, write) }),
          ),
          tryItOut(method, url, example.value, write),
        ),
      );
    }

    const success =
      definition.responses?.['200']?.content?.['application/json']?.examples?.[entry.operation];
    if (success) {
      section.append(
        el('h3', { text: 'Response' }),
        el('pre', {}, el('code', { text: JSON.stringify(success.value, null, 2) })),
      );
    }
    if (entry.nothingFound)
      section.append(
        el('p', {}, ...inline('Nothing found → **204** with `X-Error-Code: not_found`.')),
      );
    section.append(el('h3', { text: 'Errors' }), errorList(doc, definition.responses ?? {}));
    return section;
  }

  function render(doc) {
    const info = doc.info ?? {};
    const origin = window.location.origin;
    // Paths are below the first server's URL (the base path, e.g. /helpdesk).
    const base = new URL(doc.servers?.[0]?.url ?? '/', origin).pathname.replace(/\/$/, '');
    const keyInput = el('input', {
      type: 'password',
      id: 'apikey',
      autocomplete: 'off',
      placeholder: 'API key for Send (kept in this tab only)',
    });
    keyInput.addEventListener('input', () => {
      apiKey = keyInput.value;
    });
    const nav = el('nav', {});
    const main = el('main', {});
    root.replaceChildren(
      el(
        'header',
        {},
        el('h1', {}, info.title ?? 'API', ' ', el('small', { text: info.version ?? '' })),
        el('label', { for: 'apikey', text: 'apikey ' }),
        keyInput,
      ),
      el('div', { class: 'intro' }, markdown(info.description ?? '')),
      nav,
      main,
    );

    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      const url = `${origin}${base}${path}`;
      const operations = new Map();
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const definition = item[method];
        if (!definition) continue;
        for (const entry of definition['x-deskgate-operations'] ?? []) {
          const known = operations.get(entry.operation) ?? { entry, calls: [] };
          known.calls.push({ method: method.toUpperCase(), definition });
          operations.set(entry.operation, known);
        }
        if (!definition['x-deskgate-operations']) {
          const section = el(
            'section',
            { class: 'operation service' },
            el(
              'h2',
              {},
              el('span', { class: 'methods', text: method.toUpperCase() }),
              ' ',
              el('code', { text: `${base}${path}` }),
            ),
            el('p', {}, ...inline(definition.summary ?? '')),
            markdown(definition.description ?? ''),
          );
          main.append(section);
        }
      }
      for (const { entry, calls } of operations.values()) {
        main.append(operationSection(doc, url, entry, calls));
        nav.append(
          el(
            'a',
            { href: `#op-${entry.operation.replace('/', '-')}` },
            el('code', { text: entry.operation }),
          ),
        );
      }
    }
    // Service operations after the interface's own.
    for (const service of [...main.querySelectorAll('.service')]) main.append(service);
  }

  fetch(documentUrl, { credentials: 'omit' })
    .then((reply) => {
      if (!reply.ok) throw new Error(`${documentUrl}: ${reply.status}`);
      return reply.json();
    })
    .then(render)
    .catch((error) => {
      root.replaceChildren(
        el('p', { class: 'status', text: `The reference could not be loaded: ${error}` }),
      );
    });
})();
