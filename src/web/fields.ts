import { html, type Markup } from './html';

// Form controls with a visible label, a hint and the field's error, wired for assistive technology
// (aria-describedby, aria-invalid) so a person — and a test finding controls by label — sees the
// same form. Every merchant page builds its inputs from these.

export interface FieldOptions {
  name: string;
  label: string;
  value?: string | number | null;
  error?: string;
  hint?: string | Markup;
  type?: 'text' | 'email' | 'password' | 'tel' | 'number' | 'url' | 'date' | 'search' | 'color';
  required?: boolean;
  autocomplete?: string;
  inputmode?: 'numeric' | 'decimal' | 'tel' | 'email' | 'text' | 'search';
  pattern?: string;
  min?: string | number;
  max?: string | number;
  step?: string | number;
  maxlength?: number;
  placeholder?: string;
  autofocus?: boolean;
  /** The id of a <datalist> of suggestions (a searchable choice). */
  list?: string;
  /** Shown and sent, not editable. */
  readonly?: boolean;
  /** The id of the input; defaults to `f-<name>`. */
  id?: string;
  /** What follows an optional field's label, in the page's language; "(optional)" by default. */
  optionalText?: string;
}

const idFor = (o: { name: string; id?: string }) => o.id ?? `f-${o.name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

const optionalMark = (o: { required?: boolean; optionalText?: string }) => (o.required ? '' : html` <span class="muted small">${o.optionalText ?? '(optional)'}</span>`);

function described(id: string, o: { hint?: unknown; error?: string }): Markup {
  const ids = [o.hint ? `${id}-hint` : '', o.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`${ids ? html` aria-describedby="${ids}"` : ''}${o.error ? html` aria-invalid="true"` : ''}`;
}

function notes(id: string, o: { hint?: string | Markup; error?: string }): Markup {
  return html`${o.hint ? html`<span class="hint" id="${id}-hint">${o.hint}</span>` : ''}${o.error ? html`<span class="error" id="${id}-error">${o.error}</span>` : ''}`;
}

export function inputField(o: FieldOptions): Markup {
  const id = idFor(o);
  const attr = (name: string, value: unknown) => (value === undefined || value === null || value === false ? '' : value === true ? html` ${name}` : html` ${name}="${String(value)}"`);
  return html`<div class="field">
  <label for="${id}">${o.label}${optionalMark(o)}</label>
  <input id="${id}" name="${o.name}" type="${o.type ?? 'text'}"${attr('value', o.value ?? '')}${attr('required', o.required)}${attr('autocomplete', o.autocomplete)}${attr('inputmode', o.inputmode)}${attr('pattern', o.pattern)}${attr('min', o.min)}${attr('max', o.max)}${attr('step', o.step)}${attr('maxlength', o.maxlength)}${attr('placeholder', o.placeholder)}${attr('autofocus', o.autofocus)}${attr('list', o.list)}${attr('readonly', o.readonly)}${described(id, o)}>
  ${notes(id, o)}
</div>`;
}

export function textareaField(o: Omit<FieldOptions, 'type'> & { rows?: number }): Markup {
  const id = idFor(o);
  return html`<div class="field">
  <label for="${id}">${o.label}${optionalMark(o)}</label>
  <textarea id="${id}" name="${o.name}" rows="${o.rows ?? 3}"${o.required ? html` required` : ''}${o.maxlength ? html` maxlength="${o.maxlength}"` : ''}${described(id, o)}>${o.value ?? ''}</textarea>
  ${notes(id, o)}
</div>`;
}

export function selectField(o: Omit<FieldOptions, 'type'> & { options: { value: string; label: string }[]; placeholder?: string }): Markup {
  const id = idFor(o);
  const selected = o.value === undefined || o.value === null ? '' : String(o.value);
  return html`<div class="field">
  <label for="${id}">${o.label}${optionalMark(o)}</label>
  <select id="${id}" name="${o.name}"${o.required ? html` required` : ''}${described(id, o)}>
    ${o.placeholder !== undefined ? html`<option value="">${o.placeholder}</option>` : ''}
    ${o.options.map((opt) => html`<option value="${opt.value}"${opt.value === selected ? html` selected` : ''}>${opt.label}</option>`)}
  </select>
  ${notes(id, o)}
</div>`;
}

export function checkboxField(o: { name: string; label: string | Markup; checked?: boolean; error?: string; hint?: string | Markup; value?: string; required?: boolean; id?: string }): Markup {
  const id = idFor(o);
  return html`<div class="field">
  <label class="check" for="${id}"><input id="${id}" type="checkbox" name="${o.name}" value="${o.value ?? 'on'}"${o.checked ? html` checked` : ''}${o.required ? html` required` : ''}${described(id, o)}> <span>${o.label}</span></label>
  ${notes(id, o)}
</div>`;
}

/** The message for the whole form, announced when it appears. */
export function formError(message: string | undefined): Markup {
  return message ? html`<div class="notice error" role="alert"><p>${message}</p></div>` : html``;
}
