// The card editor, enhanced: the pass preview follows typing (debounced), and each colour field
// gets a colour picker beside it. Without this script the editor works the same with its
// "Update preview" button. The preview is a page of our own in a frame; it is moved with
// location.replace, so following the typing adds nothing to the browser's history.
import { PREVIEW_FIELDS, PREVIEW_PATH } from '../cards/preview-fields';
import { fillKeys } from '../cards/question-keys';
import { contrastRatio, MIN_TEXT_CONTRAST, ratioText } from '../../lib/contrast';

const DEBOUNCE_MS = 300;

/**
 * The script's few words, in the admin's language: the page renders them into a JSON block
 * (editorTexts in cards/views.ts), so the console has one catalogue and the script none.
 */
interface EditorTexts {
  /** The colour picker's name, per colour field (`design.backgroundColor` …). */
  pickColour: Record<string, string>;
  noBirthday: string;
  /** `{key}` stands for the question's key. */
  notDate: string;
}

function editorTexts(): EditorTexts {
  const block = document.getElementById('card-editor-texts');
  const fallback: EditorTexts = { pickColour: {}, noBirthday: '', notDate: '{key}' };
  try {
    return block?.textContent ? { ...fallback, ...(JSON.parse(block.textContent) as Partial<EditorTexts>) } : fallback;
  } catch {
    return fallback;
  }
}

function previewAddress(form: HTMLFormElement): string {
  const query = new URLSearchParams();
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string' && value !== '' && PREVIEW_FIELDS.test(name)) query.append(name, value);
  }
  const cardId = form.dataset.cardId;
  if (cardId) query.set('card', cardId);
  return `${PREVIEW_PATH}?${query.toString()}`;
}

/** #rgb, #rrggbb or rgb(r, g, b) as #rrggbb for the picker; undefined for anything else. */
function asHex(text: string): string | undefined {
  const value = text.trim();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value);
  if (hex) return `#${hex[1]!.length === 3 ? [...hex[1]!].map((d) => d + d).join('') : hex[1]!}`.toLowerCase();
  const rgb = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/i.exec(value);
  if (!rgb) return undefined;
  const parts = rgb.slice(1, 4).map(Number);
  if (parts.some((n) => n > 255)) return undefined;
  return `#${parts.map((n) => n.toString(16).padStart(2, '0')).join('')}`;
}

function addColourPickers(form: HTMLFormElement): void {
  const texts = editorTexts();
  for (const input of form.querySelectorAll<HTMLInputElement>('.colours input[type="text"]')) {
    const picker = document.createElement('input');
    picker.type = 'color';
    picker.className = 'colour-picker';
    const label = texts.pickColour[input.name] ?? input.labels?.[0]?.firstChild?.textContent?.trim();
    if (label) picker.setAttribute('aria-label', label);
    picker.value = asHex(input.value) ?? asHex(input.placeholder) ?? '#000000';
    picker.addEventListener('input', () => {
      input.value = picker.value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    input.addEventListener('input', () => {
      const hex = asHex(input.value) ?? (input.value.trim() === '' ? asHex(input.placeholder) : undefined);
      if (hex) picker.value = hex;
    });
    // The text field and its picker side by side, the label still the text field's.
    const pair = document.createElement('span');
    pair.className = 'colour-pair';
    input.replaceWith(pair);
    pair.append(input, picker);
  }
}

function start(): void {
  const form = document.querySelector<HTMLFormElement>('form[data-card-form]');
  const frame = document.querySelector<HTMLIFrameElement>('iframe[data-card-preview]');
  if (!form || !frame) return;
  addColourPickers(form);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let shown = frame.getAttribute('src') ?? '';
  const update = () => {
    const address = previewAddress(form);
    if (address === shown) return;
    shown = address;
    if (frame.contentWindow) frame.contentWindow.location.replace(address);
    else frame.src = address;
  };
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(update, DEBOUNCE_MS);
  };
  form.addEventListener('input', soon);
  form.addEventListener('change', soon);
  // Picking a type opens the sections that type uses (without this script, they open on the next render).
  form.querySelector<HTMLSelectElement>('select[name="passType"]')?.addEventListener('change', (event) => {
    const type = (event.target as HTMLSelectElement).value;
    const open = (id: string) => form.querySelector<HTMLDetailsElement>(`details#${id}`)?.setAttribute('open', '');
    if (type === 'stamp_card' || type === 'point_card') open('rewards');
    if (type === 'level_card') open('levels');
  });
  // "Add a choice" only where the answer type is a list (without this script it shows on every
  // question, and a choice on another type is refused with the schema's message).
  const choiceButtons = () => {
    for (const holder of Array.from(form.querySelectorAll<HTMLElement>('[data-choices-of]'))) {
      const type = form.querySelector<HTMLSelectElement>(`select[name="${CSS.escape(holder.dataset.choicesOf ?? '')}"]`);
      holder.hidden = !!type && type.value !== 'select';
    }
  };
  choiceButtons();
  form.addEventListener('change', (event) => {
    if ((event.target as HTMLElement).matches?.('select[name$=".type"]')) choiceButtons();
  });
  // The preview follows by itself: the button is for pages without this script.
  const button = form.querySelector<HTMLButtonElement>('[data-preview-button]');
  if (button) button.hidden = true;
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();

// --- Rows added and removed in place ---
// A row button ("Add a choice", "Remove question") posts the form as the button would, and only
// its section of the answer replaces the one on the page: the rest of the form, a chosen logo file
// and the scroll position stay, and focus goes where the server marked (autofocus: the new row's
// first field, or after a removal the list's add button). Without this script the page reloads
// at the section, with the same focus.

function sectionOf(action: string): string {
  if (action.includes('rewards')) return 'rewards';
  if (action.includes('levels')) return 'levels';
  if (action.includes('items')) return 'earning';
  return 'questions';
}

async function rowAction(form: HTMLFormElement, button: HTMLButtonElement): Promise<void> {
  const data = new FormData(form, button);
  const multipart = form.enctype === 'multipart/form-data';
  const body = multipart ? data : new URLSearchParams([...data].filter((e): e is [string, string] => typeof e[1] === 'string'));
  const id = sectionOf(button.value);
  let page: Document;
  try {
    const res = await fetch(form.action.split('#')[0]!, { method: 'POST', body, credentials: 'same-origin', headers: { Accept: 'text/html' } });
    if (!res.ok) throw new Error(String(res.status));
    page = new DOMParser().parseFromString(await res.text(), 'text/html');
  } catch {
    // Let the browser do it the plain way.
    form.requestSubmit(button);
    return;
  }
  const fresh = page.getElementById(id);
  const current = form.querySelector<HTMLElement>(`#${id}`);
  if (!fresh || !current) return form.requestSubmit(button);
  current.replaceWith(document.importNode(fresh, true));
  const placed = form.querySelector<HTMLElement>(`#${id}`)!;
  placed.querySelectorAll<HTMLElement>('[data-choices-of]').forEach((holder) => {
    const type = form.querySelector<HTMLSelectElement>(`select[name="${CSS.escape(holder.dataset.choicesOf ?? '')}"]`);
    holder.hidden = !!type && type.value !== 'select';
  });
  const target = placed.querySelector<HTMLElement>('[autofocus]') ?? placed.querySelector<HTMLElement>('summary');
  target?.focus();
  form.dispatchEvent(new Event('input', { bubbles: true }));
}

function startRows(): void {
  const form = document.querySelector<HTMLFormElement>('form[data-card-form]');
  if (!form) return;
  form.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-row-action]');
    if (!button || !form.contains(button)) return;
    event.preventDefault();
    void rowAction(form, button);
  });
}

// --- The contrast warning follows the colours as they are typed ---
function parseRgb(text: string): [number, number, number] | undefined {
  const hex = asHex(text);
  if (!hex) return undefined;
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

function startContrast(): void {
  const form = document.querySelector<HTMLFormElement>('form[data-card-form]');
  const warning = document.getElementById('contrast-warning');
  const bg = form?.querySelector<HTMLInputElement>('input[name="design.backgroundColor"]');
  const fg = form?.querySelector<HTMLInputElement>('input[name="design.foregroundColor"]');
  if (!form || !warning || !bg || !fg) return;
  const check = () => {
    const background = parseRgb(bg.value) ?? parseRgb(bg.placeholder);
    const text = parseRgb(fg.value) ?? parseRgb(fg.placeholder);
    if (!background || !text) return;
    const ratio = contrastRatio(background, text);
    warning.hidden = ratio >= Number(warning.dataset.minContrast ?? MIN_TEXT_CONTRAST);
    const shown = warning.querySelector('[data-contrast-ratio]');
    if (shown) shown.textContent = ratioText(ratio);
  };
  form.addEventListener('input', check);
  form.addEventListener('change', check);
}

// --- Expiry: only the number of the rule chosen is shown (without this script, both are) ---
function startExpiry(): void {
  const form = document.querySelector<HTMLFormElement>('form[data-card-form]');
  const rule = form?.querySelector<HTMLSelectElement>('select[name="expiry.rule"]');
  if (!form || !rule) return;
  const show = () => {
    for (const holder of Array.from(form.querySelectorAll<HTMLElement>('[data-expiry-rule]'))) holder.hidden = !(holder.dataset.expiryRule ?? '').split(' ').includes(rule.value);
  };
  show();
  rule.addEventListener('change', show);
}

// --- The birthday question follows the questions as they are typed ---
// Its choices are the form's date questions, under the keys saving will give them (the same
// fillKeys as the server); a chosen question that is no longer one stays chosen, so saving says so.
function startBirthday(): void {
  const form = document.querySelector<HTMLFormElement>('form[data-card-form]');
  if (!form) return;
  const value = (name: string) => form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${CSS.escape(name)}"]`)?.value ?? '';
  const refresh = () => {
    const select = form.querySelector<HTMLSelectElement>('select[name="birthday.questionKey"]');
    if (!select) return;
    const rows = Array.from(form.querySelectorAll<HTMLInputElement>('input[name^="questions["][name$="].label"]'))
      .map((input) => /^questions\[(\d+)\]\.label$/.exec(input.name)?.[1])
      .filter((i): i is string => i !== undefined)
      .map((i) => ({ key: value(`questions[${i}].key`), label: value(`questions[${i}].label`), type: value(`questions[${i}].type`), options: [] }));
    const dates = fillKeys(rows).filter((q) => q.type === 'date' && q.key !== '');
    const chosen = select.value;
    const texts = editorTexts();
    const options = [{ value: '', label: select.options[0]?.textContent ?? texts.noBirthday }, ...dates.map((q) => ({ value: q.key, label: q.label.trim() || q.key }))];
    if (chosen && !dates.some((q) => q.key.toLowerCase() === chosen.toLowerCase())) options.push({ value: chosen, label: texts.notDate.replace('{key}', chosen) });
    const same = options.length === select.options.length && options.every((o, i) => select.options[i]?.value === o.value && select.options[i]?.textContent === o.label);
    if (same) return;
    select.replaceChildren(...options.map((o) => new Option(o.label, o.value, false, o.value === chosen)));
  };
  form.addEventListener('input', (event) => {
    if ((event.target as HTMLElement).matches?.('[name^="questions["]')) refresh();
  });
  form.addEventListener('change', (event) => {
    if ((event.target as HTMLElement).matches?.('[name^="questions["]')) refresh();
  });
  // A question added or removed in place (rowAction) announces itself with an input event on the form.
  form.addEventListener('input', (event) => {
    if (event.target === form) refresh();
  });
}

function startEditorExtras(): void {
  startRows();
  startContrast();
  startExpiry();
  startBirthday();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', startEditorExtras);
else startEditorExtras();
