// The settings page, enhanced: a button that fills in the time zone this browser is set to (the
// shop's tablet or the owner's laptop is usually where the shop is). The server turns an older
// name the browser may use (Europe/Kiev) into the current one when it saves.

function startZoneButton(): void {
  const holder = document.querySelector<HTMLElement>('[data-browser-zone]');
  const input = document.querySelector<HTMLInputElement>('input[name="timeZone"]');
  if (!holder || !input) return;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone) return;
  holder.querySelector<HTMLElement>('[data-zone-name]')!.textContent = zone.replace(/_/g, ' ');
  holder.hidden = false;
  holder.querySelector('[data-use-zone]')!.addEventListener('click', () => {
    input.value = zone;
    input.focus();
  });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', startZoneButton);
else startZoneButton();
