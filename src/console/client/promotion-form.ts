// The promotion form, enhanced: only the number of the kind chosen (multiply, or add extra) is
// shown. Without this script both are shown, each with its own label, and the one of the chosen
// kind is read.
function start(): void {
  const form = document.querySelector<HTMLFormElement>('form[data-promotion-form]');
  if (!form) return;
  const show = () => {
    const kind = form.querySelector<HTMLInputElement>('input[name="kind"]:checked')?.value;
    for (const holder of Array.from(form.querySelectorAll<HTMLElement>('[data-kind]'))) holder.hidden = kind !== undefined && holder.dataset.kind !== kind;
  };
  show();
  form.addEventListener('change', (event) => {
    if ((event.target as HTMLElement).matches?.('input[name="kind"]')) show();
  });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
