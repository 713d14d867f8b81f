// Usage: calls and credits over time, per endpoint and per tag, as SVG charts each with a table alternative.
import { get, qs } from './api.js';
import { barList, dayChart, fillDays } from './chart.js';
import { card, count, emptyState, field, fmtNumber, h, newId, pageHeader, table } from './ui.js';

const TAG_RE = /^[A-Za-z0-9_.:-]{1,50}$/;

export async function renderUsage(page, ctx) {
  const params = new URLSearchParams(location.search);
  const days = ['7', '30', '90'].includes(params.get('days')) ? params.get('days') : '30';
  const tag = TAG_RE.test(params.get('tag') ?? '') ? params.get('tag') : '';
  const metric = params.get('metric') === 'calls' ? 'calls' : 'credits';
  // Live keys by default: test-mode keys report prices but spend nothing, so their calls are shown apart.
  const mode = params.get('mode') === 'test' ? 'test' : 'live';
  const usage = await get(`/v1/account/usage${qs({ days, tag, mode })}`);

  const apply = (changes) => {
    const next = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) v ? next.set(k, v) : next.delete(k);
    ctx.navigate(`/usage${next.toString() ? `?${next}` : ''}`, { replace: true });
  };

  page.append(
    pageHeader('Usage', tag ? `Calls labelled with the tag “${tag}”.` : 'What your keys spent, day by day. Pick a tag to see its own days; an endpoint’s name opens its calls in the logs.'),
    filters({ days, tag, mode, usage, apply }),
  );

  const byDay = usage.byDay ?? [];
  const byEndpoint = [...(usage.byEndpoint ?? [])].sort((a, b) => b[metric] - a[metric] || a.endpoint.localeCompare(b.endpoint));
  const byTag = [...(usage.byTag ?? [])].sort((a, b) => b[metric] - a[metric] || a.tag.localeCompare(b.tag));

  page.append(
    h(
      'div',
      { class: 'stats stats-compact' },
      statBox(mode === 'test' ? 'Test-mode calls' : 'Calls', fmtNumber(usage.calls ?? 0), `in the last ${days} days`),
      mode === 'test'
        ? statBox('Credits reported', fmtNumber(usage.credits ?? 0), 'by test keys: nothing was spent')
        : statBox('Credits spent', fmtNumber(usage.credits ?? 0), usage.test?.calls ? `test keys: ${count(usage.test.calls, 'call')}, nothing spent` : `in the last ${days} days`),
      statBox('Endpoints', fmtNumber(byEndpoint.length), byTag.length ? count(byTag.length, 'tag') : 'no tags used'),
    ),
  );

  if (!usage.calls) {
    page.append(card(null, emptyState(`No ${mode === 'test' ? 'test-mode' : 'paid'} calls in the last ${days} days${tag ? ` with the tag “${tag}”` : ''}. Calls made with your keys show up here within seconds.`)));
    return;
  }

  const unit = metric === 'calls' ? 'calls' : 'credits';
  const one = metric === 'calls' ? 'call' : 'credit';
  const points = fillDays(byDay, usage.from, usage.to, metric);
  const busiest = points.reduce((a, b) => (b.value > a.value ? b : a), points[0]);
  page.append(
    card(
      `${metric === 'calls' ? 'Calls' : 'Credits'} per day`,
      metricSwitch(metric, (m) => apply({ metric: m === 'credits' ? '' : m })),
      dayChart(points, {
        label: unit,
        summary: `Bar chart of ${unit} per day over the last ${days} days: ${fmtNumber(usage[metric] ?? 0)} in total, busiest day ${busiest.day} with ${fmtNumber(busiest.value)}.`,
      }),
      tableAlternative(
        `${metric === 'calls' ? 'Calls' : 'Credits'} per day`,
        ['Day (UTC)', 'Calls', 'Credits'],
        byDay.map((d) => [d.day.slice(0, 10), fmtNumber(d.calls), fmtNumber(d.credits)]),
      ),
    ),
  );

  page.append(
    h(
      'div',
      { class: 'grid-2' },
      card(
        'By endpoint',
        barList(
          byEndpoint.map((e) => ({ name: e.endpoint, value: e[metric], href: `/dashboard/logs${qs({ endpoint: e.endpoint, days, tag })}`, linkTitle: `The calls to ${e.endpoint} in the logs` })),
          { label: `${unit} by endpoint`, valueText: (i) => count(i.value, one) },
        ),
        tableAlternative('By endpoint', ['Endpoint', 'Calls', 'Credits'], byEndpoint.map((e) => [e.endpoint, fmtNumber(e.calls), fmtNumber(e.credits)])),
      ),
      card(
        'By tag',
        byTag.length
          ? [
              barList(
                byTag.map((t) => ({ name: t.tag, value: t[metric], href: t.tag === tag ? undefined : `/dashboard/usage${qs({ days: days === '30' ? '' : days, tag: t.tag })}`, linkTitle: `Usage of the tag ${t.tag} day by day` })),
                { label: `${unit} by tag`, valueText: (i) => count(i.value, one) },
              ),
              tableAlternative('By tag', ['Tag', 'Calls', 'Credits'], byTag.map((t) => [t.tag, fmtNumber(t.calls), fmtNumber(t.credits)])),
            ]
          : emptyState('No tagged calls. Add "tags": ["my-label"] to a request body to break usage down by tag.'),
      ),
    ),
  );
}

function statBox(label, value, sub) {
  return h('section', { class: 'stat card', 'aria-label': label }, h('p', { class: 'stat-label' }, label), h('p', { class: 'stat-value' }, value), h('p', { class: 'stat-sub' }, sub));
}

function filters({ days, tag, mode, usage, apply }) {
  const modeSel = h('select', { name: 'mode' }, h('option', { value: 'live', selected: mode === 'live' }, 'Live keys'), h('option', { value: 'test', selected: mode === 'test' }, 'Test keys'));
  modeSel.addEventListener('change', () => apply({ mode: modeSel.value === 'live' ? '' : modeSel.value }));
  const daysSel = h('select', { name: 'days' }, ['7', '30', '90'].map((d) => h('option', { value: d, selected: d === days }, `Last ${d} days`)));
  daysSel.addEventListener('change', () => apply({ days: daysSel.value === '30' ? '' : daysSel.value }));
  const listId = newId('tags');
  const tagInput = h('input', { type: 'search', name: 'tag', value: tag, list: listId, placeholder: 'All tags', maxlength: 50, autocomplete: 'off' });
  const datalist = h('datalist', { id: listId }, (usage.byTag ?? []).map((t) => h('option', { value: t.tag })));
  const form = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Usage filters' },
    field('Period', daysSel),
    field('Keys', modeSel),
    field('Tag', tagInput),
    datalist,
    h('button', { type: 'submit', class: 'btn btn-secondary' }, 'Apply'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const v = tagInput.value.trim();
    if (v && !TAG_RE.test(v)) {
      tagInput.setCustomValidity('A tag is 1-50 letters, digits, -, _, . or :');
      tagInput.reportValidity();
      return;
    }
    tagInput.setCustomValidity('');
    apply({ tag: v });
  });
  return form;
}

function metricSwitch(metric, onChange) {
  const name = newId('metric');
  const opt = (value, label) => {
    const input = h('input', { type: 'radio', name, value, checked: metric === value, class: 'visually-hidden', id: `${name}-${value}` });
    input.addEventListener('change', () => onChange(value));
    return h('span', {}, input, h('label', { for: input.id }, label));
  };
  return h('fieldset', { class: 'segmented' }, h('legend', { class: 'visually-hidden' }, 'Measure'), opt('credits', 'Credits'), opt('calls', 'Calls'));
}

/** The chart's numbers as a table, folded away under a disclosure. */
function tableAlternative(caption, headers, rows) {
  return h(
    'details',
    { class: 'table-alt' },
    h('summary', {}, 'Show as table'),
    table({ caption, columns: headers.map((label, i) => ({ label, className: i === 0 ? undefined : 'num' })), rows: rows.map((r) => h('tr', {}, r.map((c, i) => (i === 0 ? h('th', { scope: 'row' }, c) : h('td', { class: 'num' }, c))))) }),
  );
}
