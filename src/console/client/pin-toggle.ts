import { bindShowPin } from '../../web/client/show-pin';

// "Show PIN" beside each masked PIN field of a console page (the Staff page).

function startPinToggles(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-show-pin]')) {
    const input = document.getElementById(button.dataset.showPin ?? '') as HTMLInputElement | null;
    if (input) bindShowPin(button, input);
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', startPinToggles);
else startPinToggles();
