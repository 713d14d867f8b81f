// Sign-in and sign-up (with an invite code): centred cards outside the dashboard's shell.
import { ApiError, post } from './api.js';
import { icon } from './icons.js';
import { busy, errorBox, field, h } from './ui.js';

function authCard(title, subtitle, ...children) {
  return h(
    'div',
    { class: 'auth' },
    h('div', { class: 'auth-brand' }, icon('logo', 'icon brand-mark'), h('span', {}, 'Quarry')),
    h('section', { class: 'auth-card', 'aria-labelledby': 'auth-title' }, h('h1', { id: 'auth-title', class: 'auth-title', tabindex: '-1' }, title), subtitle ? h('p', { class: 'auth-subtitle' }, subtitle) : null, children),
  );
}

/** A password input with a show/hide toggle that keeps its label. */
function passwordInput(name, autocomplete) {
  const input = h('input', { type: 'password', name, required: true, autocomplete, minlength: autocomplete === 'new-password' ? 10 : undefined, maxlength: 200 });
  const toggle = h('button', { type: 'button', class: 'input-addon', 'aria-label': 'Show password', 'aria-pressed': 'false' }, icon('eye'));
  toggle.addEventListener('click', () => {
    const show = input.type === 'password';
    input.type = show ? 'text' : 'password';
    toggle.setAttribute('aria-pressed', String(show));
    toggle.setAttribute('aria-label', show ? 'Hide password' : 'Show password');
    toggle.replaceChildren(icon(show ? 'eyeOff' : 'eye'));
  });
  return { input, control: h('div', { class: 'input-group' }, input, toggle) };
}

/** field() for a control wrapped in a group: the label still points at the input itself. */
function groupField(label, { input, control }, hint) {
  const f = field(label, input, hint);
  f.replaceChild(control, input);
  control.prepend(input); // field() moved the input out of its group; put it back in front of the toggle
  return f;
}

/** Flags a field as the one in error (read out by screen readers) until it is edited. */
function markInvalid(input) {
  input.setAttribute('aria-invalid', 'true');
  input.addEventListener('input', () => input.removeAttribute('aria-invalid'), { once: true });
}

const cliNext = (next) => (next && next.startsWith('/cli/') ? next : null);

export function renderSignIn(main, ctx) {
  const err = errorBox();
  const email = h('input', { type: 'email', name: 'email', required: true, autocomplete: 'username', maxlength: 320 });
  const pw = passwordInput('password', 'current-password');
  const form = h(
    'form',
    { class: 'stack' },
    err.el,
    field('E-mail', email),
    groupField('Password', pw),
    h('button', { type: 'submit', class: 'btn btn-primary btn-block' }, 'Sign in'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.hide();
    try {
      await busy(form, () => post('/v1/auth/signin', { email: email.value.trim(), password: pw.input.value }, { sessionCall: false }));
      await ctx.onSignedIn(ctx.next);
    } catch (e2) {
      err.show(e2 instanceof ApiError && e2.code === 'unauthorized' ? 'Wrong e-mail or password.' : e2.message);
      markInvalid(pw.input);
      pw.input.select();
      pw.input.focus();
    }
  });
  const signupHref = `/dashboard/signup${ctx.next ? `?next=${encodeURIComponent(ctx.next)}` : ''}`;
  main.append(
    authCard(
      'Sign in',
      cliNext(ctx.next) ? 'Sign in to approve the login request from your terminal.' : 'Welcome back. Sign in to manage your keys, usage and credits.',
      form,
      h('p', { class: 'auth-foot' }, 'Have an invite code? ', h('a', { href: signupHref }, 'Create an account')),
    ),
  );
}

export function renderSignUp(main, ctx) {
  const err = errorBox();
  const params = new URLSearchParams(location.search);
  const invite = h('input', { type: 'text', name: 'inviteCode', required: true, autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false', maxlength: 200, class: 'mono-input', placeholder: 'XXXX-XXXX-XXXX-XXXX', value: params.get('invite') ?? '' });
  const email = h('input', { type: 'email', name: 'email', required: true, autocomplete: 'username', maxlength: 320 });
  const pw = passwordInput('password', 'new-password');
  const form = h(
    'form',
    { class: 'stack' },
    err.el,
    field('Invite code', invite, 'The code your Quarry operator gave you.'),
    field('E-mail', email),
    groupField('Password', pw, 'At least 10 characters.'),
    h('button', { type: 'submit', class: 'btn btn-primary btn-block' }, 'Create account'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.hide();
    if (pw.input.value.length < 10) {
      err.show('The password needs at least 10 characters.');
      pw.input.focus();
      return;
    }
    try {
      const out = await busy(form, () => post('/v1/auth/signup', { inviteCode: invite.value.trim(), email: email.value.trim(), password: pw.input.value }, { sessionCall: false }));
      await ctx.onSignedIn(ctx.next, out?.apiKey);
    } catch (e2) {
      err.show(inviteMessage(e2));
      const culprit = e2 instanceof ApiError && /^invite|notFound/.test(e2.code) ? invite : /password/i.test(e2.message) ? pw.input : email;
      markInvalid(culprit);
      culprit.focus();
    }
  });
  main.append(
    authCard(
      'Create your account',
      'Sign up with an invite code. Your account starts with the invite’s credits and one API key.',
      form,
      h('p', { class: 'auth-foot' }, 'Already have an account? ', h('a', { href: `/dashboard/signin${ctx.next ? `?next=${encodeURIComponent(ctx.next)}` : ''}` }, 'Sign in')),
    ),
  );
}

/** The invite error codes of SPEC.md, said for a person. */
function inviteMessage(e) {
  if (!(e instanceof ApiError)) return e.message;
  switch (e.code) {
    case 'notFound':
      return 'That invite code does not exist. Check it for typos.';
    case 'inviteDisabled':
      return 'That invite code has been disabled by the operator.';
    case 'inviteExpired':
      return 'That invite code has expired. Ask for a new one.';
    case 'inviteUsedUp':
      return 'That invite code has been used as many times as it allows.';
    case 'inviteClaimed':
      return 'This e-mail address already signed up with this invite. Sign in instead.';
    default:
      return e.message;
  }
}
