// API keys: create (named, live or test), copy, reveal after the password, revoke after a confirmation.
import { get, post } from './api.js';
import { announce, badge, button, confirmDialog, copyButton, copyText, emptyState, formDialog, h, openDialog, pageHeader, timeEl, table } from './ui.js';

export async function renderKeys(page, ctx) {
  const list = h('div', {});
  const createBtn = button('Create key', { kind: 'primary' }, 'plus');
  createBtn.addEventListener('click', () => createKey(ctx, refresh));
  page.append(
    pageHeader('API keys', 'Keys authenticate your calls. Treat them like passwords: keep them in environment variables, never in code.', createBtn),
    list,
  );

  async function refresh() {
    const { keys } = await get('/v1/account/keys');
    list.replaceChildren(keysTable(keys, ctx, refresh));
  }
  await refresh();
}

function keysTable(keys, ctx, refresh) {
  if (!keys.length) return emptyState('You have no API keys yet.');
  // Live keys first, revoked last; newest first within each group.
  const sorted = [...keys].sort((a, b) => Number(a.revoked) - Number(b.revoked) || String(b.createdAt).localeCompare(String(a.createdAt)));
  return table({
    caption: 'Your API keys',
    className: 'table-keys table-stack',
    columns: [{ label: 'Name' }, { label: 'Key' }, { label: 'Created' }, { label: 'Last used' }, { label: 'Actions', className: 'col-actions' }],
    rows: sorted.map((k) => keyRow(k, ctx, refresh)),
  });
}

function keyRow(k, ctx, refresh) {
  const keyCell = h('td', { 'data-label': 'Key' });
  const showMasked = () => keyCell.replaceChildren(...[h('code', { class: 'key-prefix' }, `${k.prefix}…`), k.test ? badge('test', 'info') : null].filter(Boolean));
  showMasked();

  const actions = h('div', { class: 'row-actions' });
  if (k.revoked) {
    actions.append(badge('Revoked', 'muted'));
  } else {
    const copy = button('Copy', { class: 'btn btn-secondary btn-sm', 'aria-label': `Copy key ${k.name}` }, 'copy');
    copy.addEventListener('click', async () => {
      const key = await ctx.secrets.keyFor(k, 'To copy the whole key, Quarry needs to reveal it.');
      if (!key) return;
      if (await copyText(key)) announce(`Key “${k.name}” copied to the clipboard.`);
      else announce('Could not copy: reveal the key and copy it by hand.', 'error');
    });
    const reveal = button('Reveal', { class: 'btn btn-secondary btn-sm', 'aria-label': `Reveal key ${k.name}`, 'aria-expanded': 'false' }, 'eye');
    let shown = false;
    reveal.addEventListener('click', async () => {
      if (shown) {
        shown = false;
        showMasked();
        reveal.setAttribute('aria-expanded', 'false');
        reveal.querySelector('span').textContent = 'Reveal';
        return;
      }
      const key = await ctx.secrets.keyFor(k, 'Revealing shows the whole key on screen.');
      if (!key) return;
      shown = true;
      keyCell.replaceChildren(h('code', { class: 'secret', 'data-secret': k.id }, key));
      reveal.setAttribute('aria-expanded', 'true');
      reveal.querySelector('span').textContent = 'Hide';
      announce(`Key “${k.name}” revealed.`);
    });
    const revoke = button('Revoke', { class: 'btn btn-danger-ghost btn-sm', 'aria-label': `Revoke key ${k.name}` }, 'trash');
    revoke.addEventListener('click', async () => {
      const ok = await confirmDialog({
        title: `Revoke “${k.name}”?`,
        description: `Calls made with ${k.prefix}… will fail with 401 from now on. This cannot be undone.`,
        confirmLabel: 'Revoke key',
        danger: true,
      });
      if (!ok) return;
      try {
        await post(`/v1/account/keys/${encodeURIComponent(k.id)}/revoke`, {});
        ctx.secrets.forget(k.id);
        announce(`Key “${k.name}” revoked.`);
        await refresh();
      } catch (e) {
        announce(e.message, 'error');
      }
    });
    actions.append(copy, reveal, revoke);
  }

  return h(
    'tr',
    { class: k.revoked ? 'is-revoked' : '', 'data-key-id': k.id },
    h('td', { 'data-label': 'Name' }, h('span', { class: 'key-name' }, k.name)),
    keyCell,
    h('td', { 'data-label': 'Created' }, timeEl(k.createdAt)),
    h('td', { 'data-label': 'Last used' }, timeEl(k.lastUsedAt)),
    h('td', { class: 'col-actions', 'data-label': 'Actions' }, actions),
  );
}

async function createKey(ctx, refresh) {
  const test = h('input', { type: 'checkbox', name: 'test' });
  const created = await formDialog({
    title: 'Create an API key',
    description: 'Name the key after where it will be used, so its calls are easy to find in the logs.',
    fields: [
      { name: 'name', label: 'Name', hint: 'For example “production”, “staging” or “laptop”.', autocomplete: 'off', maxlength: 50 },
      { name: 'test', label: 'Test mode: answers come from recorded samples and spend no credits', control: test, required: false },
    ],
    submitLabel: 'Create key',
    onSubmit: ({ name, test: isTest }) => {
      if (!name.trim()) throw new Error('Give the key a name.');
      return post('/v1/account/keys', { name: name.trim(), ...(isTest ? { test: true } : {}) });
    },
  });
  if (!created || !created.key) return;
  ctx.secrets.set(created.id, created.key);
  await refresh();
  await openDialog({
    title: `Key “${created.name}” created`,
    description: 'Copy it now and keep it somewhere safe. You can reveal it again later with your password.',
    build: (close) =>
      h(
        'div',
        { class: 'stack' },
        h('div', { class: 'secret-row' }, h('code', { class: 'secret', 'data-new-key': '' }, created.key), copyButton(created.key, 'Copy key', { 'data-autofocus': '' })),
        h('div', { class: 'dialog-actions' }, button('Done', { kind: 'primary', onclick: () => close(true) }, 'check')),
      ),
  });
}
