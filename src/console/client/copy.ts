// "Copy" beside a secret shown once (a new API key, a webhook signing secret) or a value to paste
// elsewhere (a card's id, widgets.ts copyField). The value sits in a read-only field that can be selected and copied by hand, so the page works without this script;
// with it, the button appears (html.has-js) and copies in one tap.
//
// markup: <textarea id="x" readonly>…</textarea> <button type="button" class="copy-button" data-copy="x">Copy</button>
//         <span data-copy-status="x" role="status"></span>
// The button carries the status texts in the page's language (data-copied, data-copy-failed).

document.documentElement.classList.add('has-js');

function say(targetId: string, text: string): void {
  const status = document.querySelector<HTMLElement>(`[data-copy-status="${CSS.escape(targetId)}"]`);
  if (status) status.textContent = text;
}

async function copyFrom(field: HTMLInputElement | HTMLTextAreaElement): Promise<boolean> {
  // The asynchronous clipboard needs a secure context (https or localhost); a shop server on the
  // local network is often plain http, where the selection and execCommand still work.
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(field.value);
      return true;
    } catch {
      // fall through to the selection
    }
  }
  field.focus();
  field.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  }
}

document.addEventListener('click', (event) => {
  const button = (event.target as Element | null)?.closest<HTMLButtonElement>('button[data-copy]');
  if (!button) return;
  const targetId = button.dataset.copy ?? '';
  const field = document.getElementById(targetId);
  if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return;
  void copyFrom(field).then((copied) => {
    say(targetId, copied ? (button.dataset.copied ?? 'Copied.') : (button.dataset.copyFailed ?? 'Select the text and copy it by hand.'));
    if (!copied) field.select();
  });
});

// A click in the field selects all of it: one long token is copied whole or not at all.
document.addEventListener('focusin', (event) => {
  const field = event.target;
  if ((field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) && (field.classList.contains('secret-value') || field.closest('.copy-field'))) field.select();
});
