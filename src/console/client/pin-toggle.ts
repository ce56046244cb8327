// "Show PIN" beside a masked PIN field (the Staff page): the owner checks what they typed, then
// hides it again. Without this script the field stays masked and works the same.

function startPinToggles(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-show-pin]')) {
    const input = document.getElementById(button.dataset.showPin ?? '') as HTMLInputElement | null;
    if (!input) continue;
    button.hidden = false;
    button.addEventListener('click', () => {
      const shown = input.type === 'password';
      input.type = shown ? 'text' : 'password';
      button.setAttribute('aria-pressed', String(shown));
      button.textContent = shown ? 'Hide PIN' : 'Show PIN';
    });
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', startPinToggles);
else startPinToggles();
