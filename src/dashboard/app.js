// The dashboard's shell: the session, the router (history API, deep links served by the SPA fallback), the
// navigation, and what pages share (the keys revealed in this tab, kept in memory only).
import { ApiError, get, post, setCsrfToken, setSessionLostHandler } from './api.js';
import { icon } from './icons.js';
import { announce, button, clear, fmtNumber, formDialog, h, loading } from './ui.js';
import { renderSignIn, renderSignUp } from './page-auth.js';
import { renderOverview } from './page-overview.js';
import { renderKeys } from './page-keys.js';
import { renderUsage } from './page-usage.js';
import { renderLogs } from './page-logs.js';
import { renderRequest, renderRequests } from './page-requests.js';
import { renderCatalogue } from './page-catalogue.js';
import { renderMcp } from './page-mcp.js';
import { renderBudgets } from './page-budgets.js';
import { renderAccount } from './page-account.js';
import { renderCli } from './page-cli.js';

const BASE = '/dashboard';

const NAV = [
  { path: '/', label: 'Overview', icon: 'home', render: renderOverview },
  { path: '/keys', label: 'API keys', icon: 'key', render: renderKeys },
  { path: '/usage', label: 'Usage', icon: 'chart', render: renderUsage },
  { path: '/requests', label: 'Requests', icon: 'activity', render: renderRequests },
  { path: '/logs', label: 'Logs', icon: 'list', render: renderLogs },
  { path: '/catalogue', label: 'Catalogue', icon: 'book', render: renderCatalogue },
  { path: '/mcp', label: 'MCP', icon: 'plug', render: renderMcp },
  { path: '/budgets', label: 'Budgets', icon: 'gauge', render: renderBudgets },
  { path: '/account', label: 'Account', icon: 'user', render: renderAccount },
];

const state = {
  session: null, // {user, account, csrfToken}
  revealed: new Map(), // keyId → whole key, for this tab only
  welcomeKey: null, // the default key answered by sign-up, shown once
  renderId: 0,
  firstRender: true,
};

function pathWithinDashboard() {
  const p = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '/';
  return p.replace(/\/+$/, '') || '/';
}

export function navigate(to, { replace = false } = {}) {
  const url = to.startsWith(BASE) ? to : BASE + (to === '/' ? '/' : to);
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  render();
}

async function loadSession() {
  try {
    const s = await get('/v1/auth/session');
    state.session = s;
    setCsrfToken(s.csrfToken);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 401) throw e;
    state.session = null;
    setCsrfToken(null);
  }
  return state.session;
}

function forgetSecrets() {
  state.revealed.clear();
}

async function signOut(everywhere = false) {
  const r = await post('/v1/auth/signout', { everywhere });
  state.session = null;
  setCsrfToken(null);
  forgetSecrets();
  announce(everywhere ? `Signed out of ${r?.signedOut ?? 'all'} session${r?.signedOut === 1 ? '' : 's'}.` : 'Signed out.');
  navigate('/signin', { replace: true });
}

/** The whole key of `keyRow`: from memory, or revealed now after the person types their password. */
async function keyFor(keyRow, purpose) {
  const known = state.revealed.get(keyRow.id);
  if (known) return known;
  const out = await formDialog({
    title: `Reveal “${keyRow.name}”`,
    description: `${purpose} Enter your password to reveal this key. It stays in this tab's memory only and is forgotten when you sign out or close the tab.`,
    fields: [{ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password' }],
    submitLabel: 'Reveal key',
    onSubmit: async ({ password }) => {
      try {
        return await post(`/v1/account/keys/${encodeURIComponent(keyRow.id)}/reveal`, { password });
      } catch (e) {
        if (e instanceof ApiError && e.status === 403 && e.code === 'forbidden' && !/csrf/i.test(e.message)) throw new Error('That password is not right. Try again.');
        throw e;
      }
    },
  });
  if (!out || !out.key) return null;
  state.revealed.set(keyRow.id, out.key);
  return out.key;
}

function context() {
  return {
    session: state.session,
    navigate,
    signOut,
    takeWelcomeKey: () => {
      const k = state.welcomeKey;
      state.welcomeKey = null;
      return k;
    },
    refreshSession: async () => {
      await loadSession();
      updateBalance();
    },
    secrets: {
      get: (id) => state.revealed.get(id),
      set: (id, key) => state.revealed.set(id, key),
      forget: (id) => state.revealed.delete(id),
      keyFor,
    },
  };
}

// --- shell -------------------------------------------------------------------------------------------------

let shell = null;

function buildShell() {
  const balance = h('a', { class: 'balance-pill', href: `${BASE}/`, 'data-balance': '' });
  const links = NAV.map((n) =>
    h('li', {}, h('a', { href: BASE + (n.path === '/' ? '/' : n.path), class: 'nav-link', 'data-path': n.path }, icon(n.icon), h('span', {}, n.label))),
  );
  const main = h('main', { id: 'main', class: 'main', tabindex: '-1' });
  const root = h(
    'div',
    { class: 'shell' },
    h(
      'header',
      { class: 'topbar' },
      h('a', { class: 'brand', href: `${BASE}/` }, icon('logo', 'icon brand-mark'), h('span', {}, 'Quarry')),
      h(
        'div',
        { class: 'topbar-right' },
        balance,
        h('span', { class: 'topbar-email', 'data-email': '' }),
        button('Sign out', { class: 'btn btn-ghost btn-sm', onclick: () => signOut(false).catch((e) => announce(e.message, 'error')) }, 'logout'),
      ),
    ),
    h('div', { class: 'layout' }, h('nav', { class: 'sidenav', 'aria-label': 'Dashboard sections' }, h('ul', {}, links)), main),
  );
  return { root, main, balance };
}

function updateBalance() {
  if (!shell || !state.session) return;
  const bal = state.session.account?.balance ?? 0;
  clear(shell.balance).append(icon('card'), h('span', {}, `${fmtNumber(bal)} credits`));
  shell.balance.setAttribute('aria-label', `Balance: ${fmtNumber(bal)} credits`);
  shell.root.querySelector('[data-email]').textContent = state.session.user?.email ?? '';
}

function mountShell(activePath) {
  const app = document.getElementById('app');
  if (!shell || !shell.root.isConnected) {
    shell = buildShell();
    clear(app).append(shell.root);
  }
  updateBalance();
  for (const a of shell.root.querySelectorAll('.nav-link')) {
    if (a.dataset.path === activePath) {
      a.setAttribute('aria-current', 'page');
      // On a phone the navigation is one scrolling row: keep the current section in sight.
      const nav = a.closest('.sidenav');
      if (nav.scrollWidth > nav.clientWidth) {
        const left = a.offsetLeft - nav.offsetLeft;
        if (left < nav.scrollLeft || left + a.offsetWidth > nav.scrollLeft + nav.clientWidth) nav.scrollLeft = Math.max(0, left - 24);
      }
    } else a.removeAttribute('aria-current');
  }
  return shell.main;
}

function mountBare() {
  shell = null;
  const app = document.getElementById('app');
  const main = h('main', { id: 'main', class: 'main-bare', tabindex: '-1' });
  clear(app).append(main);
  return main;
}

// --- routing -----------------------------------------------------------------------------------------------

function route(path) {
  if (path === '/signin') return { public: true, title: 'Sign in', render: renderSignIn };
  if (path === '/signup') return { public: true, title: 'Create your account', render: renderSignUp };
  const cli = /^\/cli\/([A-Za-z0-9_-]{1,200})$/.exec(path);
  if (cli) return { title: 'Approve CLI login', render: (main, ctx) => renderCli(main, ctx, cli[1]), bare: true };
  const request = /^\/requests\/([A-Za-z0-9_-]{1,100})$/.exec(path);
  if (request) return { title: 'Request', render: (main, ctx) => renderRequest(main, ctx, request[1]), navPath: '/requests' };
  const nav = NAV.find((n) => n.path === path);
  if (nav) return { title: nav.label, render: nav.render, navPath: nav.path };
  return { title: 'Not found', render: renderNotFound, navPath: null };
}

function renderNotFound(main) {
  main.append(h('div', { class: 'page-header' }, h('h1', { class: 'page-title', tabindex: '-1' }, 'Page not found')), h('p', {}, 'There is no dashboard page at this address. ', h('a', { href: `${BASE}/` }, 'Go to the overview'), '.'));
}

async function render() {
  const id = ++state.renderId;
  const path = pathWithinDashboard();
  const r = route(path);
  const next = new URLSearchParams(location.search).get('next');

  if (r.public) {
    if (state.session) return navigate(safeNext(next) ?? '/', { replace: true });
    const main = mountBare();
    document.title = `${r.title} · Quarry`;
    await r.render(main, { ...context(), next: safeNext(next), onSignedIn });
    focusHeading(main);
    return;
  }
  if (!state.session) {
    // Signed out: sign in first, then come back here.
    const back = path === '/' ? '' : `?next=${encodeURIComponent(path + location.search)}`;
    history.replaceState(null, '', `${BASE}/signin${back}`);
    return render();
  }

  const main = r.bare ? mountBare() : mountShell(r.navPath);
  clear(main).append(loading());
  document.title = `${r.title} · Quarry`;
  const holder = h('div', { class: 'page' });
  try {
    await r.render(holder, context());
  } catch (e) {
    if (id !== state.renderId) return;
    holder.replaceChildren(h('div', { class: 'form-error', role: 'alert' }, icon('alert'), h('span', {}, e.message || 'Something went wrong.')));
  }
  if (id !== state.renderId) return; // another navigation won
  clear(main).append(holder);
  focusHeading(main);
}

/** After a navigation, focus moves to the new page's heading so screen readers announce it (not on first load). */
function focusHeading(main) {
  if (state.firstRender) {
    state.firstRender = false;
    return;
  }
  const h1 = main.querySelector('h1');
  (h1 ?? main).focus();
}

/** Only paths inside the dashboard are followed after sign-in (no open redirect). */
function safeNext(next) {
  if (!next || !/^\/[A-Za-z0-9_\-/?=&%.]*$/.test(next) || next.startsWith('//')) return null;
  return next;
}

async function onSignedIn(nextPath, newKey) {
  forgetSecrets();
  await loadSession();
  if (newKey?.key) {
    // Sign-up answers the default key whole: shown once on the overview, kept in memory like a revealed key.
    state.revealed.set(newKey.id, newKey.key);
    state.welcomeKey = newKey;
  }
  navigate(nextPath ?? '/', { replace: true });
}

// Links inside the dashboard change the page without a reload.
document.addEventListener('click', (e) => {
  const a = e.target instanceof Element ? e.target.closest('a') : null;
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  if (a.target || a.hasAttribute('download')) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith(`${BASE}/`) && url.pathname !== BASE) return;
  e.preventDefault();
  if (url.pathname + url.search === location.pathname + location.search) return;
  history.pushState(null, '', url.pathname + url.search);
  render();
});
window.addEventListener('popstate', () => render());

setSessionLostHandler(() => {
  if (!state.session) return;
  state.session = null;
  setCsrfToken(null);
  forgetSecrets();
  announce('Your session ended. Sign in again.', 'error');
  render();
});

async function start() {
  const app = document.getElementById('app');
  app.append(loading());
  try {
    await loadSession();
  } catch (e) {
    clear(app).append(h('main', { class: 'main-bare' }, h('div', { class: 'form-error', role: 'alert' }, icon('alert'), h('span', {}, e.message))));
    return;
  }
  await render();
}

start();
