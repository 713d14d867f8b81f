// Small DOM helpers. Text always goes in as text nodes, never parsed as markup, so nothing the server or a person types
// can become markup.
import { icon } from './icons.js';

/** h('button', {class: 'btn', onclick: fn}, 'Label', child…) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'value' || k === 'checked' || k === 'selected') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

let uid = 0;
export const newId = (prefix = 'f') => `${prefix}-${++uid}`;

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** A labelled form field; `input` is the control element (gets an id and aria-describedby for the hint). */
export function field(label, input, hint) {
  const id = input.id || newId();
  input.id = id;
  const hintEl = hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null;
  if (hintEl) input.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, hintEl);
}

export function button(label, attrs = {}, iconName) {
  const { kind = 'secondary', ...rest } = attrs;
  return h('button', { type: 'button', class: `btn btn-${kind}`, ...rest }, iconName ? icon(iconName) : null, h('span', {}, label));
}

/** A spot inside a form for its error message: role=alert so it is read out when it appears. */
export function errorBox() {
  const el = h('div', { class: 'form-error', role: 'alert', hidden: true });
  return {
    el,
    show(message) {
      clear(el).append(icon('alert'), h('span', {}, message));
      el.hidden = false;
    },
    hide() {
      el.hidden = true;
      clear(el);
    },
  };
}

/** Disables a form's controls while `fn` runs so a double click cannot send twice. */
export async function busy(form, fn) {
  const controls = [...form.querySelectorAll('button, input, select, textarea')].filter((c) => !c.disabled);
  controls.forEach((c) => (c.disabled = true));
  form.setAttribute('aria-busy', 'true');
  try {
    return await fn();
  } finally {
    controls.forEach((c) => (c.disabled = false));
    form.removeAttribute('aria-busy');
  }
}

// --- status messages ---------------------------------------------------------------------------------------

/** A short message in the polite live region (and visible as a toast for a few seconds). */
export function announce(message, kind = 'info') {
  // While a modal dialog is open the rest of the page is inert (and not read out): its own region speaks instead.
  const dialogs = document.querySelectorAll('dialog[open] .toasts');
  const region = dialogs.length ? dialogs[dialogs.length - 1] : document.getElementById('status');
  if (!region) return;
  const toast = h('div', { class: `toast toast-${kind}` }, icon(kind === 'error' ? 'alert' : 'check'), h('span', {}, message));
  region.append(toast);
  while (region.children.length > 3) region.firstElementChild.remove();
  setTimeout(() => toast.remove(), kind === 'error' ? 8000 : 4000);
}

// --- dialogs -----------------------------------------------------------------------------------------------

/**
 * A modal dialog (native <dialog>: focus is trapped inside and Escape closes it). `build(close)` returns the body;
 * focus goes to the first field (or `initialFocus`) and back to the opener when it closes.
 */
export function openDialog({ title, description, build, wide = false }) {
  return new Promise((resolve) => {
    const opener = document.activeElement;
    const titleId = newId('dlg');
    const descId = description ? newId('dlgd') : undefined;
    const dialog = h('dialog', { class: `dialog${wide ? ' dialog-wide' : ''}`, 'aria-labelledby': titleId, 'aria-describedby': descId });
    let result = null;
    const close = (value = null) => {
      result = value;
      dialog.close();
    };
    dialog.append(
      h('h2', { id: titleId, class: 'dialog-title' }, title),
      description ? h('p', { id: descId, class: 'dialog-desc' }, description) : null,
      build(close),
      h('div', { class: 'toasts', role: 'status', 'aria-live': 'polite' }),
    );
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
      resolve(result);
    });
    document.body.append(dialog);
    dialog.showModal();
    const first = dialog.querySelector('[data-autofocus]') ?? dialog.querySelector('input, select, textarea');
    if (first) first.focus();
  });
}

export function confirmDialog({ title, description, confirmLabel, danger = false }) {
  return openDialog({
    title,
    description,
    build: (close) => {
      // A destructive action starts with the focus on Cancel, so a stray Enter does no harm.
      const cancel = button('Cancel', { onclick: () => close(false), 'data-autofocus': danger ? '' : undefined });
      const ok = button(confirmLabel, { kind: danger ? 'danger' : 'primary', onclick: () => close(true), 'data-autofocus': danger ? undefined : '' });
      return h('div', { class: 'dialog-actions' }, cancel, ok);
    },
  }).then((v) => v === true);
}

/**
 * A dialog with a form; `onSubmit(values)` runs on submit. If it throws, its message shows in the dialog and the
 * dialog stays open (a wrong password can be typed again); otherwise the dialog closes with its result.
 */
export function formDialog({ title, description, fields, submitLabel, danger = false, onSubmit }) {
  return openDialog({
    title,
    description,
    build: (close) => {
      const err = errorBox();
      const inputs = fields.map((f) => ({ ...f, input: f.control ?? h('input', { type: f.type ?? 'text', name: f.name, required: f.required ?? true, autocomplete: f.autocomplete, minlength: f.minlength, maxlength: f.maxlength }) }));
      const form = h(
        'form',
        { class: 'stack', novalidate: false },
        err.el,
        inputs.map((f) => field(f.label, f.input, f.hint)),
        h('div', { class: 'dialog-actions' }, button('Cancel', { onclick: () => close(null) }), h('button', { type: 'submit', class: `btn btn-${danger ? 'danger' : 'primary'}` }, submitLabel)),
      );
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        err.hide();
        const values = Object.fromEntries(inputs.map((f) => [f.name, f.input.type === 'checkbox' ? f.input.checked : f.input.value]));
        try {
          const out = await busy(form, () => onSubmit(values));
          close(out ?? true);
        } catch (e2) {
          err.show(e2.message);
          const first = inputs[0]?.input;
          if (first && first.type === 'password') {
            first.select();
          }
          first?.focus();
        }
      });
      return form;
    },
  });
}

// --- clipboard ---------------------------------------------------------------------------------------------

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Older browsers or a denied permission: the selection + execCommand route still works on a user gesture.
    const ta = h('textarea', { class: 'visually-hidden', readonly: true });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    return ok;
  }
}

/** A copy button that says "Copied" for a moment. */
export function copyButton(getText, label = 'Copy', attrs = {}) {
  const btn = button(label, { class: 'btn btn-secondary btn-sm', ...attrs }, 'copy');
  btn.addEventListener('click', async () => {
    const text = typeof getText === 'function' ? await getText() : getText;
    if (text == null) return;
    if (await copyText(text)) {
      const span = btn.querySelector('span');
      span.textContent = 'Copied';
      announce('Copied to the clipboard.');
      setTimeout(() => (span.textContent = label), 1500);
    } else announce('Could not copy: select the text and copy it by hand.', 'error');
  });
  return btn;
}

/** A read-only code block with a copy button. */
export function codeBlock(text, { label = 'Copy', language } = {}) {
  const pre = h('pre', { class: 'code', tabindex: '0' }, h('code', { 'data-language': language }, text));
  return h('div', { class: 'code-wrap' }, pre, h('div', { class: 'code-actions' }, copyButton(() => pre.textContent, label)));
}

// --- formatting --------------------------------------------------------------------------------------------

const numberFmt = new Intl.NumberFormat('en-US');
export const fmtNumber = (n) => numberFmt.format(Number(n) || 0);
/** "1 credit", "2 credits", "1,000 calls". */
export const count = (n, one, many = `${one}s`) => `${fmtNumber(n)} ${Number(n) === 1 ? one : many}`;

const dateFmt = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
export function fmtDate(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : dateFmt.format(d);
}

export function fmtRelative(iso) {
  if (!iso) return 'never';
  const ms = Date.now() - new Date(iso).getTime();
  if (Number.isNaN(ms)) return String(iso);
  const s = Math.round(ms / 1000);
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const hr = Math.round(m / 60);
  if (hr < 24) return `${hr} h ago`;
  const d = Math.round(hr / 24);
  if (d < 30) return `${d} day${d === 1 ? '' : 's'} ago`;
  return fmtDate(iso);
}

/** <time> with the exact date as its title and datetime. */
export function timeEl(iso, relative = true) {
  if (!iso) return h('span', { class: 'muted' }, 'never');
  return h('time', { datetime: iso, title: fmtDate(iso) }, relative ? fmtRelative(iso) : fmtDate(iso));
}

export function badge(text, kind = 'neutral') {
  return h('span', { class: `badge badge-${kind}` }, text);
}

export function pageHeader(title, subtitle, ...actions) {
  return h(
    'div',
    { class: 'page-header' },
    h('div', {}, h('h1', { tabindex: '-1', class: 'page-title' }, title), subtitle ? h('p', { class: 'page-subtitle' }, subtitle) : null),
    actions.length ? h('div', { class: 'page-actions' }, actions) : null,
  );
}

export function card(title, ...children) {
  const titleId = title ? newId('card') : undefined;
  return h('section', { class: 'card', 'aria-labelledby': titleId }, title ? h('h2', { class: 'card-title', id: titleId }, title) : null, children);
}

export function emptyState(text, ...actions) {
  return h('div', { class: 'empty' }, h('p', {}, text), actions);
}

export function loading(text = 'Loading…') {
  return h('p', { class: 'loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), text);
}

/** A table with a caption (visually hidden when `hiddenCaption`) and a scroll wrapper for narrow screens. */
export function table({ caption, hiddenCaption = true, columns, rows, className = '' }) {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: `table ${className}` },
      h('caption', { class: hiddenCaption ? 'visually-hidden' : '' }, caption),
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col', class: c.className }, c.label)))),
      h('tbody', {}, rows),
    ),
  );
}
