// "Show PIN" beside a masked PIN field (the Staff page, the counter's PIN screen): staff check what
// they typed, then hide it again. The button stays hidden without script; the field works the same.

/**
 * Makes `button` switch `input` between masked and shown, saying which in its label and
 * aria-pressed. The page may give the two labels in its language (data-show-text, data-hide-text).
 */
export function bindShowPin(button: HTMLButtonElement, input: HTMLInputElement, afterToggle?: () => void): void {
  button.hidden = false;
  button.addEventListener('click', () => {
    const shown = input.type === 'password';
    input.type = shown ? 'text' : 'password';
    button.setAttribute('aria-pressed', String(shown));
    button.textContent = shown ? (button.dataset.hideText ?? 'Hide PIN') : (button.dataset.showText ?? 'Show PIN');
    afterToggle?.();
  });
}
