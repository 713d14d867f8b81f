// Logs: the account's paid calls, newest first, 50 a page, filtered by endpoint, key, tag and period.
import { get, qs } from './api.js';
import { badge, button, count, emptyState, field, fmtDate, fmtNumber, h, pageHeader, table } from './ui.js';

const TAG_RE = /^[A-Za-z0-9_.:-]{1,50}$/;
const PERIODS = ['1', '7', '30', '90'];

export async function renderLogs(page, ctx) {
  const p = new URLSearchParams(location.search);
  const f = {
    days: PERIODS.includes(p.get('days')) ? p.get('days') : '7',
    endpoint: /^[a-z0-9_.-]{1,100}$/i.test(p.get('endpoint') ?? '') ? p.get('endpoint') : '',
    keyId: /^[A-Za-z0-9_-]{1,100}$/.test(p.get('keyId') ?? '') ? p.get('keyId') : '',
    tag: TAG_RE.test(p.get('tag') ?? '') ? p.get('tag') : '',
    page: /^\d{1,6}$/.test(p.get('page') ?? '') ? Number(p.get('page')) : 0,
  };
  const [logs, keys] = await Promise.all([
    get(`/v1/account/logs${qs({ days: f.days, page: f.page || undefined, endpoint: f.endpoint, keyId: f.keyId, tag: f.tag })}`),
    get('/v1/account/keys').then((r) => r.keys).catch(() => []),
  ]);

  const go = (changes) => {
    const next = { ...f, ...changes };
    const q = qs({ days: next.days === '7' ? '' : next.days, endpoint: next.endpoint, keyId: next.keyId, tag: next.tag, page: next.page || '' });
    ctx.navigate(`/logs${q}`, { replace: !('page' in changes && Object.keys(changes).length === 1) });
  };

  page.append(pageHeader('Logs', 'Every paid call made with your keys, newest first. Failed calls are under Requests.'), filters(f, logs.endpoints ?? [], keys, go, new Set(logs.unavailableEndpoints ?? [])));

  const rows = logs.logs ?? [];
  if (!rows.length) {
    const filtered = f.endpoint || f.keyId || f.tag;
    page.append(emptyState(filtered ? 'No calls match these filters.' : `No paid calls in the last ${f.days === '1' ? 'day' : `${f.days} days`}.`, filtered ? button('Clear filters', { onclick: () => ctx.navigate('/logs') }) : null));
    return;
  }

  page.append(
    table({
      caption: `Paid calls, page ${f.page + 1} of ${Math.max(1, logs.totalPages)}`,
      className: 'table-logs table-stack',
      columns: [{ label: 'Time' }, { label: 'Endpoint' }, { label: 'Key' }, { label: 'Credits', className: 'num' }, { label: 'Cache' }, { label: 'Tags' }],
      rows: rows.map((r) =>
        h(
          'tr',
          {},
          h('td', { 'data-label': 'Time' }, h('time', { datetime: r.createdAt, title: r.createdAt }, fmtDate(r.createdAt))),
          h('td', { 'data-label': 'Endpoint' }, h('code', {}, r.endpoint), r.test ? [' ', badge('test', 'info')] : null),
          h('td', { 'data-label': 'Key' }, r.apiKeyName ?? h('span', { class: 'muted' }, 'no key')),
          h('td', { 'data-label': 'Credits', class: 'num' }, fmtNumber(r.credits)),
          h('td', { 'data-label': 'Cache' }, r.cache ? badge(r.cache, r.cache === 'hit' ? 'success' : 'neutral') : '—'),
          h('td', { 'data-label': 'Tags' }, r.tags?.length ? h('span', { class: 'tags' }, r.tags.map((t) => badge(t, 'outline'))) : h('span', { class: 'muted' }, '—')),
        ),
      ),
    }),
  );

  const total = logs.total ?? rows.length;
  const pages = Math.max(1, logs.totalPages ?? 1);
  const prev = button('Previous', { disabled: f.page <= 0, onclick: () => go({ page: f.page - 1 }) });
  const next = button('Next', { disabled: f.page + 1 >= pages, onclick: () => go({ page: f.page + 1 }) });
  const info = h('p', { class: 'pager-info' }, pages > 1 ? `Page ${f.page + 1} of ${pages} · ${count(total, 'call')}` : count(total, 'call'));
  page.append(pages > 1 ? h('nav', { class: 'pager', 'aria-label': 'Log pages' }, prev, info, next) : info);
}

function filters(f, endpoints, keys, go, unavailable) {
  const days = h('select', { name: 'days' }, PERIODS.map((d) => h('option', { value: d, selected: d === f.days }, d === '1' ? 'Last 24 hours' : `Last ${d} days`)));
  // Served endpoints first; those this server does not serve in a group of their own, marked.
  const option = (e) => h('option', { value: e, selected: e === f.endpoint }, unavailable.has(e) ? `${e} (not served here)` : e);
  const served = endpoints.filter((e) => !unavailable.has(e));
  const others = endpoints.filter((e) => unavailable.has(e));
  const endpoint = h(
    'select',
    { name: 'endpoint' },
    h('option', { value: '' }, 'All endpoints'),
    served.map(option),
    others.length ? h('optgroup', { label: 'Not served on this server' }, others.map(option)) : null,
  );
  const key = h('select', { name: 'keyId' }, h('option', { value: '' }, 'All keys'), keys.map((k) => h('option', { value: k.id, selected: k.id === f.keyId }, `${k.name}${k.revoked ? ' (revoked)' : ''}`)));
  const tag = h('input', { type: 'search', name: 'tag', value: f.tag, placeholder: 'Any tag', maxlength: 50, autocomplete: 'off' });
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Log filters' }, field('Period', days), field('Endpoint', endpoint), field('Key', key), field('Tag', tag), h('button', { type: 'submit', class: 'btn btn-secondary' }, 'Apply'));
  const submit = () => {
    const t = tag.value.trim();
    if (t && !TAG_RE.test(t)) {
      tag.setCustomValidity('A tag is 1-50 letters, digits, -, _, . or :');
      tag.reportValidity();
      return;
    }
    tag.setCustomValidity('');
    go({ days: days.value, endpoint: endpoint.value, keyId: key.value, tag: t, page: 0 });
  };
  for (const sel of [days, endpoint, key]) sel.addEventListener('change', submit);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submit();
  });
  return form;
}
