// The catalogue with prices, and a "try it" form that runs a real call with one of the account's keys (revealed
// with the password, kept in this tab's memory only).
import { callWithKey, get } from './api.js';
import { icon } from './icons.js';
import { announce, badge, busy, card, count, errorBox, field, fmtNumber, h, newId, pageHeader, table } from './ui.js';

const MAX_SHOWN = 20_000;

export function priceText(e) {
  const c = `${fmtNumber(e.credits)} credit${e.credits === 1 ? '' : 's'}`;
  return e.perItems ? `${c} per ${fmtNumber(e.perItems)} results` : `${c} per call`;
}

function ttlText(seconds) {
  if (!seconds) return 'not cached';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} d`;
}

export async function renderCatalogue(page, ctx) {
  const [{ endpoints }, keys] = await Promise.all([get('/v1/catalogue'), get('/v1/account/keys').then((r) => r.keys.filter((k) => !k.revoked))]);
  const wanted = new URLSearchParams(location.search).get('endpoint');
  const tryIt = tryPanel(endpoints, keys, ctx, wanted);

  const search = h('input', { type: 'search', name: 'q', placeholder: 'Filter by name or source', autocomplete: 'off' });
  const listHost = h('div', { class: 'catalogue-list' });
  const count = h('p', { class: 'muted', 'aria-live': 'polite' });
  const draw = () => {
    const q = search.value.trim().toLowerCase();
    const shown = endpoints.filter((e) => !q || `${e.id} ${e.title} ${e.summary}`.toLowerCase().includes(q));
    count.textContent = `${shown.length} of ${endpoints.length} endpoints`;
    const bySource = new Map();
    for (const e of shown) {
      const source = e.id.split('.')[0];
      if (!bySource.has(source)) bySource.set(source, []);
      bySource.get(source).push(e);
    }
    listHost.replaceChildren(...[...bySource].map(([source, list]) => sourceSection(source, list, tryIt.select)));
  };
  search.addEventListener('input', draw);
  draw();

  page.append(
    pageHeader('Catalogue', 'Every endpoint with its price. Failed calls are never billed; cache hits are billed like live calls.'),
    tryIt.el,
    h('div', { class: 'filters filters-inline', role: 'search' }, field('Filter endpoints', search), count),
    listHost,
  );
}

function sourceSection(source, list, select) {
  const id = newId('src');
  return h(
    'section',
    { class: 'card catalogue-source', 'aria-labelledby': id },
    h('h2', { class: 'card-title', id }, source),
    table({
      caption: `Endpoints of ${source}`,
      className: 'table-stack table-catalogue',
      columns: [{ label: 'Endpoint' }, { label: 'Price' }, { label: 'Cache' }, { label: '', className: 'col-actions' }],
      rows: list.map((e) =>
        h(
          'tr',
          { class: e.available === false ? 'is-unavailable' : '' },
          h('td', { 'data-label': 'Endpoint' }, h('div', { class: 'ep-title' }, e.title, e.keyless ? [' ', badge('keyless', 'info')] : null, e.available === false ? [' ', badge('not available', 'muted')] : null), h('code', { class: 'ep-path' }, `POST ${e.path}`), h('p', { class: 'ep-summary' }, e.summary), e.available === false && e.unavailableReason ? h('p', { class: 'ep-summary ep-note' }, e.unavailableReason) : null),
          h('td', { 'data-label': 'Price' }, priceText(e)),
          h('td', { 'data-label': 'Cache' }, ttlText(e.cacheTtlSeconds)),
          h(
            'td',
            { class: 'col-actions' },
            e.available === false
              ? null
              : h('button', { type: 'button', class: 'btn btn-secondary btn-sm', 'aria-label': `Try ${e.id}`, onclick: () => select(e.id) }, icon('play'), h('span', {}, 'Try it')),
          ),
        ),
      ),
    }),
  );
}

function tryPanel(endpoints, keys, ctx, wanted) {
  const runnable = endpoints.filter((e) => e.available !== false);
  const initial = runnable.find((e) => e.id === wanted) ?? runnable.find((e) => e.example) ?? runnable[0];
  const endpointSel = h('select', { name: 'endpoint' }, runnable.map((e) => h('option', { value: e.id, selected: e === initial }, `${e.id} · ${priceText(e)}`)));
  const keySel = h('select', { name: 'key' }, keys.map((k) => h('option', { value: k.id }, `${k.name} (${k.prefix}…${k.test ? ', test mode' : ''})`)));
  // Test keys first: trying costs nothing with them.
  const testKey = keys.find((k) => k.test);
  if (testKey) keySel.value = testKey.id;
  const body = h('textarea', { name: 'body', rows: 8, spellcheck: 'false', class: 'mono', autocomplete: 'off' });
  const err = errorBox();
  const result = h('div', { class: 'try-result', 'aria-live': 'polite' });
  const fillExample = () => {
    const e = runnable.find((x) => x.id === endpointSel.value);
    body.value = JSON.stringify(e?.example ?? {}, null, 2);
  };
  endpointSel.addEventListener('change', fillExample);
  fillExample();

  const run = h('button', { type: 'submit', class: 'btn btn-primary' }, icon('play'), h('span', {}, 'Run'));
  const form = h(
    'form',
    { class: 'try-form' },
    err.el,
    h('div', { class: 'grid-2' }, field('Endpoint', endpointSel), keys.length ? field('API key', keySel, 'Test-mode keys answer from recorded samples and spend no credits.') : h('p', { class: 'muted' }, 'Create an API key first to try endpoints.')),
    field('Request body (JSON)', body),
    h('div', { class: 'form-actions' }, run),
    result,
  );
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    err.hide();
    const e = runnable.find((x) => x.id === endpointSel.value);
    const keyRow = keys.find((k) => k.id === keySel.value);
    if (!keyRow) return err.show('Choose an API key.');
    try {
      JSON.parse(body.value);
    } catch (x) {
      body.focus();
      return err.show(`The body is not valid JSON: ${x.message}`);
    }
    const key = await ctx.secrets.keyFor(keyRow, 'The call is made with this key.');
    if (!key) return;
    await busy(form, async () => {
      result.replaceChildren(h('p', { class: 'muted' }, 'Running…'));
      try {
        const r = await callWithKey(e.path, key, body.value);
        result.replaceChildren(resultView(r, keyRow.test));
        await ctx.refreshSession();
      } catch {
        result.replaceChildren();
        err.show('Could not reach the server. Check your connection and try again.');
      }
    });
  });

  const el = card('Try it', form);
  el.id = 'try-it';
  return {
    el,
    select(id) {
      endpointSel.value = id;
      fillExample();
      el.scrollIntoView({ behavior: 'smooth', block: 'start' });
      endpointSel.focus();
      announce(`${id} selected in the try it form.`);
    },
  };
}

function resultView(r, testKey) {
  const ok = r.status >= 200 && r.status < 300;
  const text = r.json !== undefined ? JSON.stringify(r.json, null, 2) : r.text;
  const parts = [badge(`${r.status}`, ok ? 'success' : 'danger')];
  if (ok && r.json?.creditsUsed !== undefined) parts.push(h('span', {}, count(r.json.creditsUsed, 'credit'), testKey ? ' (test mode: not billed)' : ''));
  if (r.headers['x-cache']) parts.push(h('span', {}, `cache ${r.headers['x-cache']}`));
  parts.push(h('span', {}, `${fmtNumber(r.ms)} ms`));
  if (r.headers['x-request-id']) parts.push(h('code', { class: 'muted' }, r.headers['x-request-id']));
  const message = !ok && r.json?.error?.message ? h('p', { class: 'form-error', role: 'alert' }, icon('alert'), h('span', {}, `${r.json.error.code}: ${r.json.error.message}`)) : null;
  return h(
    'div',
    { class: 'stack' },
    h('div', { class: 'result-meta', 'data-status': r.status }, parts),
    message,
    h('pre', { class: 'code result-body', tabindex: '0', 'aria-label': 'Response body' }, text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}\n… (${fmtNumber(text.length - MAX_SHOWN)} more characters)` : text),
  );
}
