// Requests: every call made with the account's keys, failed ones included (the request log), newest first, 50 a
// page, filtered by outcome, mode, endpoint, key and period; and one request's detail.
import { get, qs } from './api.js';
import { badge, button, card, codeBlock, count, emptyState, field, fmtDate, fmtNumber, h, pageHeader, table } from './ui.js';

const PERIODS = ['1', '7', '30', '90'];
const OUTCOMES = { '': 'All outcomes', ok: 'Succeeded', failed: 'Failed' };
const MODES = { '': 'Live and test', live: 'Live keys', test: 'Test keys' };

const statusBadge = (r) => badge(String(r.status), r.status < 400 ? 'success' : 'danger');

export async function renderRequests(page, ctx) {
  const p = new URLSearchParams(location.search);
  const f = {
    days: PERIODS.includes(p.get('days')) ? p.get('days') : '7',
    outcome: p.get('outcome') in OUTCOMES ? p.get('outcome') : '',
    mode: p.get('mode') in MODES ? p.get('mode') : '',
    endpoint: /^[a-z0-9_.-]{1,100}$/i.test(p.get('endpoint') ?? '') ? p.get('endpoint') : '',
    keyId: /^[A-Za-z0-9_-]{1,100}$/.test(p.get('keyId') ?? '') ? p.get('keyId') : '',
    page: /^\d{1,6}$/.test(p.get('page') ?? '') ? Number(p.get('page')) : 0,
  };
  const [log, keys] = await Promise.all([
    get(`/v1/account/request-log${qs({ days: f.days, page: f.page || undefined, outcome: f.outcome, mode: f.mode, endpoint: f.endpoint, keyId: f.keyId })}`),
    get('/v1/account/keys').then((r) => r.keys).catch(() => []),
  ]);

  const go = (changes) => {
    const next = { ...f, ...changes };
    const q = qs({ days: next.days === '7' ? '' : next.days, outcome: next.outcome, mode: next.mode, endpoint: next.endpoint, keyId: next.keyId, page: next.page || '' });
    ctx.navigate(`/requests${q}`, { replace: !('page' in changes && Object.keys(changes).length === 1) });
  };

  page.append(
    pageHeader('Requests', `Every call made with your keys, failed ones included, with its status, error and duration. Kept ${log.keptDays} days.`),
    filters(f, keys, go),
  );

  const rows = log.requests ?? [];
  if (!rows.length) {
    const filtered = f.outcome || f.mode || f.endpoint || f.keyId;
    page.append(emptyState(filtered ? 'No requests match these filters.' : `No requests in the last ${f.days === '1' ? 'day' : `${f.days} days`}.`, filtered ? button('Clear filters', { onclick: () => ctx.navigate('/requests') }) : null));
    return;
  }

  page.append(
    table({
      caption: `Requests, page ${f.page + 1} of ${Math.max(1, log.totalPages)}`,
      className: 'table-requests table-stack',
      columns: [{ label: 'Time' }, { label: 'Status' }, { label: 'Endpoint' }, { label: 'Error' }, { label: 'Duration', className: 'num' }, { label: 'Credits', className: 'num' }, { label: 'Key' }],
      rows: rows.map((r) =>
        h(
          'tr',
          { class: r.ok ? '' : 'row-failed' },
          h('td', { 'data-label': 'Time' }, h('a', { href: `/dashboard/requests/${encodeURIComponent(r.id)}`, 'data-request': r.id, onclick: (e) => { e.preventDefault(); ctx.navigate(`/requests/${encodeURIComponent(r.id)}`); } }, h('time', { datetime: r.createdAt, title: r.createdAt }, fmtDate(r.createdAt)))),
          h('td', { 'data-label': 'Status' }, statusBadge(r)),
          h('td', { 'data-label': 'Endpoint' }, h('code', {}, r.endpoint ?? r.path), r.test ? [' ', badge('test', 'info')] : null),
          h('td', { 'data-label': 'Error' }, r.error ? h('code', { class: 'error-code' }, r.error.code) : h('span', { class: 'muted' }, '—')),
          h('td', { 'data-label': 'Duration', class: 'num' }, `${fmtNumber(r.durationMs)} ms`),
          h('td', { 'data-label': 'Credits', class: 'num' }, fmtNumber(r.credits)),
          h('td', { 'data-label': 'Key' }, r.apiKeyName),
        ),
      ),
    }),
  );

  const pages = Math.max(1, log.totalPages ?? 1);
  const prev = button('Previous', { disabled: f.page <= 0, onclick: () => go({ page: f.page - 1 }) });
  const next = button('Next', { disabled: f.page + 1 >= pages, onclick: () => go({ page: f.page + 1 }) });
  const info = h('p', { class: 'pager-info' }, pages > 1 ? `Page ${f.page + 1} of ${pages} · ${count(log.total, 'request')}` : count(log.total, 'request'));
  page.append(pages > 1 ? h('nav', { class: 'pager', 'aria-label': 'Request pages' }, prev, info, next) : info);
}

function filters(f, keys, go) {
  const select = (name, options, value) => h('select', { name }, Object.entries(options).map(([v, label]) => h('option', { value: v, selected: v === value }, label)));
  const days = select('days', Object.fromEntries(PERIODS.map((d) => [d, d === '1' ? 'Last 24 hours' : `Last ${d} days`])), f.days);
  const outcome = select('outcome', OUTCOMES, f.outcome);
  const mode = select('mode', MODES, f.mode);
  const key = h('select', { name: 'keyId' }, h('option', { value: '' }, 'All keys'), keys.map((k) => h('option', { value: k.id, selected: k.id === f.keyId }, `${k.name}${k.revoked ? ' (revoked)' : ''}`)));
  const endpoint = h('input', { type: 'search', name: 'endpoint', value: f.endpoint, placeholder: 'e.g. reddit.subforum', maxlength: 100, autocomplete: 'off' });
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Request filters' }, field('Period', days), field('Outcome', outcome), field('Mode', mode), field('Key', key), field('Endpoint', endpoint), h('button', { type: 'submit', class: 'btn btn-secondary' }, 'Apply'));
  const submit = () => go({ days: days.value, outcome: outcome.value, mode: mode.value, keyId: key.value, endpoint: endpoint.value.trim(), page: 0 });
  for (const sel of [days, outcome, mode, key]) sel.addEventListener('change', submit);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submit();
  });
  return form;
}

export async function renderRequest(page, ctx, requestId) {
  const r = await get(`/v1/account/request-log/${encodeURIComponent(requestId)}`);
  const row = (label, value) => h('div', { class: 'dl-row' }, h('dt', {}, label), h('dd', {}, value));
  const back = button('All requests', { class: 'btn btn-secondary', onclick: () => ctx.navigate('/requests') });
  page.append(
    pageHeader(`${r.method} ${r.endpoint ?? r.path}`, r.ok ? 'This call succeeded.' : 'This call failed; nothing was billed.', back),
    card(
      'Request',
      h(
        'dl',
        { class: 'dl' },
        row('Status', [statusBadge(r), r.test ? [' ', badge('test key: answered from samples, nothing spent', 'info')] : null]),
        r.error ? row('Error', [h('code', { class: 'error-code' }, r.error.code), r.error.message ? h('p', { class: 'error-message' }, r.error.message) : null]) : null,
        row('Request id', h('code', {}, r.id)),
        row('Time', h('time', { datetime: r.createdAt }, fmtDate(r.createdAt))),
        row('Duration', `${fmtNumber(r.durationMs)} ms`),
        row('Path', h('code', {}, r.path)),
        row('Channel', r.channel === 'mcp' ? 'MCP tool call' : r.channel === 'legacy' ? 'Legacy path' : 'REST'),
        row('Credits', `${fmtNumber(r.credits)}${r.test && r.credits ? ' (reported; test keys spend nothing)' : ''}`),
        r.cache ? row('Cache', badge(r.cache, r.cache === 'hit' ? 'success' : 'neutral')) : null,
        row('Key', [r.apiKeyName, ' ', h('code', { class: 'muted' }, r.apiKeyId)]),
        row('Tags', r.tags?.length ? h('span', { class: 'tags' }, r.tags.map((t) => badge(t, 'outline'))) : h('span', { class: 'muted' }, '—')),
      ),
    ),
  );
  if (r.answerUrl) {
    page.append(card('Answer', h('p', {}, 'The answer of this paid call can be fetched again, free, with any key of the account:'), codeBlock(`curl -s ${location.origin}${r.answerUrl} -H "authorization: Bearer $QUARRY_KEY"`)));
  }
}
