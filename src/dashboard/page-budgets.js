// Budgets: spending caps per key or per tag, per day or per month (list, set, delete).
import { ApiError, del, get, put } from './api.js';
import { announce, badge, busy, button, card, confirmDialog, emptyState, errorBox, field, fmtDate, fmtNumber, h, pageHeader, table } from './ui.js';

const TAG_RE = /^[A-Za-z0-9_.:-]{1,50}$/;

export async function renderBudgets(page, ctx) {
  page.append(pageHeader('Budgets', 'Cap what a key or a tag can spend per day or per month. Calls over a budget are refused, never billed.'));
  let budgets;
  try {
    budgets = (await get('/v1/account/budgets')).budgets ?? [];
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      page.append(card(null, emptyState('Budgets are not available on this server yet. Ask your operator to update Quarry.')));
      return;
    }
    throw e;
  }
  const keys = await get('/v1/account/keys').then((r) => r.keys).catch(() => []);
  const listHost = h('div', {});
  const refresh = async () => {
    budgets = (await get('/v1/account/budgets')).budgets ?? [];
    draw();
  };
  const draw = () => listHost.replaceChildren(budgetTable(budgets, keys, refresh));
  draw();
  page.append(card('Set a budget', budgetForm(keys, refresh)), listHost);
}

function targetName(b, keys) {
  if (b.scope === 'key') {
    const k = keys.find((x) => x.id === b.target);
    return k ? `Key “${k.name}”` : `Key ${b.target}`;
  }
  return `Tag “${b.target}”`;
}

function budgetTable(budgets, keys, refresh) {
  if (!budgets.length) return card(null, emptyState('No budgets yet. Without one, a key can spend the whole balance.'));
  return table({
    caption: 'Your budgets',
    className: 'table-stack',
    columns: [{ label: 'Applies to' }, { label: 'Period' }, { label: 'Spent' }, { label: 'Remaining', className: 'num' }, { label: 'Resets' }, { label: '', className: 'col-actions' }],
    rows: budgets.map((b) => {
      const pct = b.limitCredits > 0 ? Math.min(100, (b.spentCredits / b.limitCredits) * 100) : 100;
      const meter = spentBar(pct);
      const remove = button('Delete', { class: 'btn btn-danger-ghost btn-sm', 'aria-label': `Delete the budget of ${targetName(b, keys)}` }, 'trash');
      remove.addEventListener('click', async () => {
        const ok = await confirmDialog({ title: 'Delete this budget?', description: `${targetName(b, keys)} will no longer be capped ${b.period === 'day' ? 'per day' : 'per month'}.`, confirmLabel: 'Delete budget', danger: true });
        if (!ok) return;
        try {
          await del(`/v1/account/budgets/${encodeURIComponent(b.id)}`);
          announce('Budget deleted.');
          await refresh();
        } catch (e) {
          announce(e.message, 'error');
        }
      });
      return h(
        'tr',
        {},
        h('td', { 'data-label': 'Applies to' }, targetName(b, keys)),
        h('td', { 'data-label': 'Period' }, b.period === 'day' ? 'per day' : 'per month'),
        h('td', { 'data-label': 'Spent' }, h('div', { class: 'meter-row' }, meter, h('span', {}, `${fmtNumber(b.spentCredits)} / ${fmtNumber(b.limitCredits)}`), pct >= 100 ? badge('reached', 'danger') : null)),
        h('td', { 'data-label': 'Remaining', class: 'num' }, fmtNumber(b.remainingCredits)),
        h('td', { 'data-label': 'Resets' }, b.resetsAt ? fmtDate(b.resetsAt) : '—'),
        h('td', { class: 'col-actions' }, remove),
      );
    }),
  });
}

/** How much of the budget is spent, as a bar (the figures next to it say the same in words). */
function spentBar(pct) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 100 6');
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('class', 'barlist-svg spent-bar');
  svg.setAttribute('aria-hidden', 'true');
  for (const [w, cls] of [[100, 'track'], [Math.max(pct > 0 ? 1 : 0, pct), pct >= 100 ? 'bar bar-danger' : pct >= 80 ? 'bar bar-warn' : 'bar']]) {
    const r = document.createElementNS(NS, 'rect');
    r.setAttribute('width', String(w));
    r.setAttribute('height', '6');
    r.setAttribute('class', cls);
    svg.append(r);
  }
  return svg;
}

function budgetForm(keys, refresh) {
  const live = keys.filter((k) => !k.revoked);
  const err = errorBox();
  const scope = h('select', { name: 'scope' }, h('option', { value: 'key' }, 'An API key'), h('option', { value: 'tag' }, 'A tag'));
  const keySel = h('select', { name: 'keyTarget' }, live.map((k) => h('option', { value: k.id }, k.name)));
  const tag = h('input', { type: 'text', name: 'tagTarget', maxlength: 50, autocomplete: 'off', placeholder: 'e.g. nightly-crawl' });
  const period = h('select', { name: 'period' }, h('option', { value: 'day' }, 'Per day (UTC)'), h('option', { value: 'month' }, 'Per month (UTC)'));
  const limit = h('input', { type: 'number', name: 'limitCredits', min: 1, step: 1, required: true, inputmode: 'numeric' });
  const keyField = field('Key', keySel);
  const tagField = field('Tag', tag);
  const sync = () => {
    keyField.hidden = scope.value !== 'key';
    tagField.hidden = scope.value !== 'tag';
  };
  scope.addEventListener('change', sync);
  sync();
  const form = h(
    'form',
    { class: 'stack' },
    err.el,
    h('div', { class: 'grid-4' }, field('Applies to', scope), keyField, tagField, field('Period', period), field('Limit (credits)', limit)),
    h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'btn btn-primary' }, 'Save budget')),
    h('p', { class: 'hint' }, 'Saving a budget for a key or tag that already has one for that period changes its limit.'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.hide();
    const target = scope.value === 'key' ? keySel.value : tag.value.trim();
    if (scope.value === 'key' && !target) return err.show('Create an API key first.');
    if (scope.value === 'tag' && !TAG_RE.test(target)) return err.show('A tag is 1-50 letters, digits, -, _, . or :');
    const n = Number(limit.value);
    if (!Number.isSafeInteger(n) || n < 1) return err.show('The limit is a whole number of credits, at least 1.');
    try {
      await busy(form, () => put('/v1/account/budgets', { scope: scope.value, target, period: period.value, limitCredits: n }));
      announce('Budget saved.');
      limit.value = '';
      await refresh();
    } catch (e2) {
      err.show(e2.message);
    }
  });
  return form;
}
