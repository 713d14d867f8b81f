// The CLI approval page (/dashboard/cli/{sessionId}): the signed-in person approves a `quarry login` started in a
// terminal; the CLI then exchanges its verifier for a new API key.
import { ApiError, get, post } from './api.js';
import { icon } from './icons.js';
import { busy, errorBox, fmtDate, h } from './ui.js';

function frame(title, ...children) {
  return framed('terminal', title, ...children);
}

function framed(iconName, title, ...children) {
  return h(
    'div',
    { class: 'auth' },
    h('div', { class: 'auth-brand' }, icon('logo', 'icon brand-mark'), h('span', {}, 'Quarry')),
    h('section', { class: 'auth-card', 'aria-labelledby': 'cli-title' }, h('div', { class: `cli-icon${iconName === 'check' ? ' cli-icon-ok' : ''}` }, icon(iconName)), h('h1', { id: 'cli-title', class: 'auth-title', tabindex: '-1' }, title), children),
  );
}

const backLink = () => h('p', { class: 'auth-foot' }, h('a', { href: '/dashboard/' }, 'Go to the dashboard'));

export async function renderCli(page, ctx, sessionId) {
  let s;
  try {
    s = await get(`/v1/cli/sessions/${encodeURIComponent(sessionId)}`);
  } catch (e) {
    if (e instanceof ApiError && ['cliSessionNotFound', 'notFound', 'invalidCliSession'].includes(e.code)) {
      page.append(frame('Login request not found', h('p', { class: 'auth-subtitle' }, 'This CLI login does not exist or has expired. Run ', h('code', {}, 'npx quarry login'), ' again to get a new link.'), backLink()));
      return;
    }
    throw e;
  }
  page.append(view(s, ctx, sessionId));
}

function view(s, ctx, sessionId) {
  if (s.status === 'approved' || s.status === 'completed') {
    return framed(
      'check',
      'Login approved',
      h(
        'p',
        { class: 'auth-subtitle', role: 'status' },
        s.status === 'completed' ? 'The CLI has its key. You can close this tab.' : `Return to your terminal: the CLI receives its key${s.name ? ` “${s.name}”` : ''} in a few seconds.`,
      ),
      backLink(),
    );
  }
  if (s.status === 'expired') {
    return frame('This login request expired', h('p', { class: 'auth-subtitle' }, 'Run ', h('code', {}, 'npx quarry login'), ' again to get a new link.'), backLink());
  }
  const err = errorBox();
  const approve = h('button', { type: 'submit', class: 'btn btn-primary btn-block' }, icon('check'), h('span', {}, 'Approve and create the key'));
  const form = h('form', { class: 'stack' }, err.el, approve, h('a', { class: 'btn btn-ghost btn-block', href: '/dashboard/' }, 'Cancel'));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.hide();
    try {
      const r = await busy(form, () => post(`/v1/cli/sessions/${encodeURIComponent(sessionId)}/approve`, {}));
      const card = view({ ...s, status: r?.status ?? 'approved' }, ctx, sessionId);
      form.closest('.auth').replaceWith(card);
      card.querySelector('h1')?.focus();
    } catch (e2) {
      err.show(cliMessage(e2));
    }
  });
  return frame(
    'Approve CLI login?',
    h('p', { class: 'auth-subtitle' }, 'A command-line client asks for access to your Quarry account. Approve only if you just ran ', h('code', {}, 'quarry login'), ' yourself and your terminal shows the same code.'),
    h(
      'dl',
      { class: 'dl dl-compact' },
      s.verificationCode
        ? h('div', { class: 'dl-row' }, h('dt', {}, 'Terminal code'), h('dd', {}, h('strong', { 'data-cli-code': '' }, h('code', {}, s.verificationCode))))
        : null,
      h('div', { class: 'dl-row' }, h('dt', {}, 'New key name'), h('dd', {}, h('strong', { 'data-cli-name': '' }, s.name || 'CLI'))),
      h('div', { class: 'dl-row' }, h('dt', {}, 'Account'), h('dd', {}, ctx.session.user.email)),
      h('div', { class: 'dl-row' }, h('dt', {}, 'Requested'), h('dd', {}, fmtDate(s.createdAt))),
      h('div', { class: 'dl-row' }, h('dt', {}, 'Expires'), h('dd', {}, fmtDate(s.expiresAt))),
    ),
    form,
  );
}

function cliMessage(e) {
  if (!(e instanceof ApiError)) return e.message;
  switch (e.code) {
    case 'cliSessionCompleted':
      return 'This login was already completed. Run quarry login again if you need another key.';
    case 'invalidCliSession':
      return 'This login request is no longer valid (it may have expired). Run quarry login again.';
    case 'cliSessionNotFound':
      return 'This login request does not exist.';
    default:
      return e.message;
  }
}
