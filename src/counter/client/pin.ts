import { bindShowPin } from '../../web/client/show-pin';
import { queuedAwards } from './queue';
import { listOf, sayCount } from './texts';

// The PIN screen: a number pad for tablets (big keys; the field still takes a keyboard), and a
// word about awards waiting on this device to be sent after the unlock.

export function startPinScreen(root: HTMLElement): void {
  const input = root.querySelector<HTMLInputElement>('#f-pin');
  const form = root.querySelector<HTMLFormElement>('#pin-form');
  root.addEventListener('click', (event) => {
    const button = (event.target as Element).closest('button');
    if (!button || !input) return;
    if (button.dataset.digit !== undefined && input.value.length < 8) input.value += button.dataset.digit;
    else if (button.hasAttribute('data-pin-back')) input.value = input.value.slice(0, -1);
    else if (button.hasAttribute('data-pin-clear')) input.value = '';
    else return;
    input.focus();
  });
  const show = root.querySelector<HTMLButtonElement>('[data-pin-show]');
  if (show && input) bindShowPin(show, input, () => input.focus());
  form?.addEventListener('submit', () => form.querySelector<HTMLButtonElement>('button[type="submit"]')?.setAttribute('disabled', ''));
  void showWaiting(root);
}

async function showWaiting(root: HTMLElement): Promise<void> {
  const note = root.querySelector<HTMLElement>('#queue-waiting');
  const orgId = root.dataset.org;
  if (!note || !orgId || !('indexedDB' in window)) return;
  const waiting = await queuedAwards(orgId).catch(() => []);
  if (!waiting.length) return;
  const staff = [...new Set(waiting.map((a) => a.staffName))];
  const names = listOf(staff);
  note.textContent = `${sayCount('pinWaiting', waiting.length)} ${sayCount(staff.length === 1 ? 'pinWaitingOne' : 'pinWaitingMany', waiting.length, { names })}`;
  note.hidden = false;
}
