// USB and Bluetooth barcode scanners are keyboards: the code arrives as keystrokes a few ms apart
// (about 7–30 ms), ended by Enter. A person types far slower. One listener on the whole page
// catches such a burst wherever focus is — on a button, on nothing, in a field — takes back what
// it typed into a field, swallows its Enter (so it presses no button and submits no form) and
// hands the code on.

/** Keystrokes further apart than this start a new burst. */
const GAP_MS = 45;
/** Shorter bursts are a person's quick typing, not a pass code. */
const MIN_LENGTH = 6;

type Editable = HTMLInputElement | HTMLTextAreaElement;
const editable = (target: EventTarget | null): target is Editable => target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;

export function listenForScanner(onCode: (code: string) => void): void {
  let burst = '';
  let last = 0;
  let before: { field: Editable; value: string } | null = null;
  document.addEventListener(
    'keydown',
    (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) {
        burst = '';
        return;
      }
      const now = event.timeStamp;
      if (now - last > GAP_MS) {
        burst = '';
        before = editable(event.target) ? { field: event.target, value: event.target.value } : null;
      }
      last = now;
      if (event.key === 'Enter') {
        const code = burst;
        burst = '';
        // The next key starts a new burst (and notes its field afresh), however soon it comes.
        last = Number.NEGATIVE_INFINITY;
        if (code.length < MIN_LENGTH) return;
        event.preventDefault();
        event.stopPropagation();
        if (before && before.field === event.target) before.field.value = before.value;
        onCode(code);
        return;
      }
      if (event.key.length === 1) burst += event.key;
    },
    true,
  );
}
