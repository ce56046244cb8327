import { getFragment, newKey, postForm, type Answer } from './api';
import { forgetShell, prepareOffline } from './offline';
import { queueAward, queuedAwards, removeAward } from './queue';
import { CameraUnavailable, startScanner, type Scanner } from './scanner';
import { say, sayCount } from './texts';
import { listenForScanner } from './wedge';

// The unlocked counter: find a customer (camera, scanner, typing), act on them, enroll. The
// server draws every screen; this script asks for the fragments, sends each tap with its own
// idempotency key, keeps awards in the offline queue while the server cannot be reached, and
// locks the counter after the owner's idle time.

/** After an answer, the same buttons ignore taps this long: a double tap counts once. */
const BOUNCE_MS = 500;
const RETRY_MS = 5_000;
/** A typed award's preview is asked for once typing pauses this long. */
const PREVIEW_MS = 250;

interface Config {
  org: string;
  mode: string;
  csrf: string;
  staffId: string;
  staffName: string;
  lockMs: number;
  wasm: string;
}

export function startCounter(root: HTMLElement): void {
  const cfg = root.dataset as unknown as Config;
  const base = `/counter/${encodeURIComponent(cfg.org)}`;
  const panel = root.querySelector<HTMLElement>('#counter-panel')!;
  const message = root.querySelector<HTMLElement>('#counter-message')!;
  const badge = document.getElementById('queue-badge')!;
  const offlineNote = document.getElementById('counter-offline')!;
  const emptyPanel = panel.innerHTML;
  let busyUntil = 0;
  let pending = false;
  let unreachable = false;

  const notify = (text: string, kind: 'error' | 'ok' | 'warn' = 'error') => {
    message.replaceChildren();
    const box = document.createElement('div');
    box.className = `notice ${kind}`;
    box.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    const p = document.createElement('p');
    p.textContent = text;
    box.append(p);
    message.append(box);
  };
  const quiet = () => message.replaceChildren();

  const setUnreachable = (value: boolean) => {
    unreachable = value;
    offlineNote.hidden = !value;
    offlineNote.textContent = value ? say('offline') : '';
  };

  const lockNow = async () => {
    await forgetShell();
    location.assign(base);
  };

  /** What every answer has in common: locked → PIN screen; unreachable → the banner. */
  const settle = (answer: Answer): Answer => {
    if (answer.kind === 'unreachable') setUnreachable(true);
    else setUnreachable(false);
    if (answer.kind === 'refused' && answer.code === 'COUNTER_LOCKED') void lockNow();
    return answer;
  };

  const show = (answer: Answer, unreachableText = say('unreachable')) => {
    settle(answer);
    if (answer.kind === 'html') {
      quiet();
      panel.innerHTML = answer.html;
      // A question to answer: its button. A refused form: straight to its first wrong field. Otherwise the heading, so the next scan types into nothing.
      const target = panel.querySelector<HTMLElement>('[data-autofocus]') ?? panel.querySelector<HTMLElement>('[aria-invalid="true"]') ?? panel.querySelector<HTMLElement>('h2');
      if (target?.tagName === 'H2') target.setAttribute('tabindex', '-1');
      target?.focus({ preventScroll: true });
      panel.scrollIntoView({ block: 'nearest' });
    } else if (answer.kind === 'refused') {
      // The refusal replaces what was said before: an earlier "✓ +1 stamp" must not stand beside it.
      panel.querySelector('.cx-confirm')?.remove();
      notify(answer.message);
    } else notify(unreachableText);
  };

  const mode = () => encodeURIComponent(cfg.mode);
  const openCode = async (code: string) => show(await getFragment(`${base}/scan?mode=${mode()}&code=${encodeURIComponent(code.trim())}`));
  const openCustomer = async (id: string) => show(await getFragment(`${base}/customers/${encodeURIComponent(id)}?mode=${mode()}`));

  // --- Finding a customer ---
  listenForScanner((code) => void openCode(code));
  const findForm = root.querySelector<HTMLFormElement>('#find-form')!;
  findForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const q = new FormData(findForm).get('q')?.toString() ?? '';
    show(await getFragment(`${base}/find?mode=${mode()}&q=${encodeURIComponent(q)}`));
  });
  root.querySelector('#enroll-open')!.addEventListener('click', async () => show(await getFragment(`${base}/enroll?mode=${mode()}`)));

  let scanner: Scanner | null = null;
  const camera = root.querySelector<HTMLElement>('#camera')!;
  const cameraNote = root.querySelector<HTMLElement>('#camera-note')!;
  const stopCamera = () => {
    scanner?.stop();
    scanner = null;
    camera.hidden = true;
  };
  root.querySelector('#camera-stop')!.addEventListener('click', stopCamera);
  root.querySelector('#scan-camera')!.addEventListener('click', async () => {
    if (scanner) return;
    cameraNote.hidden = true;
    camera.hidden = false;
    try {
      scanner = await startScanner(root.querySelector<HTMLVideoElement>('#camera-video')!, cfg.wasm, (code) => {
        scanner = null;
        camera.hidden = true;
        void openCode(code);
      });
    } catch (err) {
      camera.hidden = true;
      cameraNote.textContent = err instanceof CameraUnavailable ? err.message : say('cameraFailed');
      cameraNote.hidden = false;
    }
  });
  if (!window.isSecureContext) {
    cameraNote.textContent = say('cameraHttps');
    cameraNote.hidden = false;
  }

  // --- Acting on the customer (and the enroll form) ---
  panel.addEventListener('click', (event) => {
    const target = (event.target as Element).closest('button');
    if (!target) return;
    if (target.dataset.open) void openCustomer(target.dataset.open);
    else if (target.dataset.qr) void getFragment(`${base}/customers/${encodeURIComponent(target.dataset.qr)}/qr?mode=${mode()}`).then((answer) => show(answer));
    else if (target.hasAttribute('data-close')) {
      panel.innerHTML = emptyPanel;
      quiet();
    }
  });
  panel.addEventListener('change', async (event) => {
    const select = event.target as HTMLSelectElement;
    if (select.name === 'card' && select.closest('form[data-action="enroll"]')) show(await getFragment(`${base}/enroll?mode=${mode()}&card=${encodeURIComponent(select.value)}`));
  });
  panel.addEventListener('submit', (event) => {
    const form = (event.target as Element).closest<HTMLFormElement>('form.cx-form');
    if (!form) return;
    event.preventDefault();
    void act(form, (event as SubmitEvent).submitter as HTMLButtonElement | null);
  });

  const setBusy = (busy: boolean) => {
    panel.setAttribute('aria-busy', String(busy));
    // A button the server drew disabled (a reward the balance does not pay yet) stays disabled.
    for (const button of panel.querySelectorAll<HTMLButtonElement>('form.cx-form button:not([data-unaffordable])')) button.disabled = busy;
  };

  // --- What a typed award gives while promotions run: the server works it out, as the earn will ---
  let previewTimer: ReturnType<typeof setTimeout> | undefined;
  let previewSeq = 0;
  const preview = (form: HTMLFormElement) => {
    const output = form.querySelector<HTMLOutputElement>('output[data-preview]');
    if (!output) return;
    clearTimeout(previewTimer);
    previewTimer = setTimeout(async () => {
      const seq = ++previewSeq;
      const query = new URLSearchParams({ mode: cfg.mode });
      for (const [name, value] of new FormData(form)) if (['customer', 'what', 'amount', 'item', 'quantity'].includes(name)) query.set(name, String(value));
      const answer = await getFragment(`${base}/preview?${query.toString()}`);
      if (seq !== previewSeq || !output.isConnected) return;
      if (answer.kind === 'html') output.innerHTML = answer.html;
      else if (answer.kind === 'unreachable') output.textContent = say('previewOffline');
      else output.textContent = answer.message;
    }, PREVIEW_MS);
  };
  for (const type of ['input', 'change']) {
    panel.addEventListener(type, (event) => {
      const form = (event.target as Element).closest<HTMLFormElement>('form[data-action="earn"]');
      if (form) preview(form);
    });
  }

  const act = async (form: HTMLFormElement, submitter: HTMLButtonElement | null) => {
    // One tap at a time; the bounce below greys the buttons, so a double tap's second half lands on a disabled one.
    if (pending) return;
    pending = true;
    const action = form.dataset.action!;
    const fields: Record<string, string> = {};
    for (const [name, value] of new FormData(form, submitter)) fields[name] = String(value);
    fields.mode = cfg.mode;
    // The tap's own key, made once here: a retry, a replay from the queue, a second tab all reuse it.
    if (action !== 'enroll') fields.key = newKey();
    setBusy(true);
    const answer = await postForm(`${base}/${action}`, fields, cfg.csrf).finally(() => (pending = false));
    // The buttons stay greyed a moment after the answer (on the new screen too): the second tap of
    // a double tap lands on a disabled button instead of giving a second stamp.
    busyUntil = Date.now() + BOUNCE_MS;
    setTimeout(() => {
      if (Date.now() < busyUntil) return;
      setBusy(false);
      // A button greyed while focused lost the focus: a question's answer button gets it back.
      if (document.activeElement === document.body) panel.querySelector<HTMLElement>('[data-autofocus]')?.focus({ preventScroll: true });
    }, BOUNCE_MS);
    if (answer.kind === 'unreachable' && action === 'earn') {
      settle(answer);
      await keepForLater(form, submitter, fields);
      return;
    }
    if (answer.kind === 'unreachable' && action === 'redeem') {
      settle(answer);
      return notify(say('redeemOffline'));
    }
    show(answer);
    setBusy(Date.now() < busyUntil);
  };

  const keepForLater = async (form: HTMLFormElement, submitter: HTMLButtonElement | null, fields: Record<string, string>) => {
    const customerName = panel.querySelector('#cx-name')?.textContent?.trim() ?? say('theCustomer');
    const typed = form.querySelector<HTMLInputElement>('input[name="amount"]');
    const label =
      submitter?.name === 'amount' ? (submitter.textContent ?? '').trim() : say('awardLabel', { field: form.querySelector('label')?.textContent?.trim() ?? say('award'), value: typed?.value ?? fields.quantity ?? '' });
    await queueAward({ key: fields.key!, orgId: cfg.org, staffId: cfg.staffId, staffName: cfg.staffName, customerName, label, fields, createdAt: Date.now() });
    // The server records the award, and applies promotions, when it arrives: what the screen said a promotion adds may no longer hold.
    const promotions = panel.querySelector('.cx-promos') ? ` ${say('savedPromotions')}` : '';
    notify(`${say('saved', { award: label, customer: customerName })}${promotions}`, 'warn');
    await showQueue();
  };

  // --- The offline queue ---
  const showQueue = async () => {
    const waiting = await queuedAwards(cfg.org).catch(() => []);
    badge.hidden = waiting.length === 0;
    badge.textContent = waiting.length ? sayCount('waiting', waiting.length) : '';
    badge.title = waiting.length ? sayCount('waitingTitle', waiting.length) : '';
    return waiting;
  };

  let sending = false;
  const sendQueued = async () => {
    if (sending) return;
    sending = true;
    try {
      const waiting = await showQueue();
      let sent = 0;
      const refused: string[] = [];
      for (const award of waiting) {
        // Sent only under its own member's session: who gave it stays who gave it.
        if (award.staffId !== cfg.staffId) continue;
        const answer = settle(await postForm(`${base}/earn`, award.fields, cfg.csrf));
        if (answer.kind === 'unreachable') break;
        if (answer.kind === 'refused' && (answer.status === 401 || answer.status === 403 || answer.status === 409 || answer.status === 429)) break;
        // Applied (or applied before and replayed), or refused for good: either way it is settled.
        await removeAward(award.key);
        // A large award is confirmed by a person: the queue cannot, so it is handed back to the staff.
        if (answer.kind === 'html' && answer.html.includes('cx-large')) refused.push(say('queueLarge', { award: award.label, customer: award.customerName }));
        else if (answer.kind === 'html') sent++;
        else refused.push(say('queueRefusedItem', { award: award.label, customer: award.customerName, message: answer.message }));
      }
      await showQueue();
      if (refused.length) notify(say('queueRefused', { list: refused.join(' · ') }));
      else if (sent) notify(sayCount('queueSent', sent), 'ok');
      const open = panel.querySelector<HTMLElement>('#customer')?.dataset.customer;
      if (sent && open && !panel.querySelector('.cx-confirm')) void getFragment(`${base}/customers/${encodeURIComponent(open)}?mode=${mode()}`).then((a) => a.kind === 'html' && (panel.innerHTML = a.html));
    } finally {
      sending = false;
    }
  };

  const probe = async () => {
    const waiting = await showQueue();
    if (waiting.some((a) => a.staffId === cfg.staffId)) return sendQueued();
    if (!unreachable) return;
    try {
      const res = await fetch('/counter/sw.js', { method: 'HEAD', cache: 'no-store' });
      if (res.ok) setUnreachable(false);
    } catch {
      // Still unreachable.
    }
  };
  void probe();
  setInterval(() => void probe(), RETRY_MS);
  window.addEventListener('online', () => void probe());

  // --- Locking after the owner's idle time ---
  let lastUse = Date.now();
  for (const type of ['pointerdown', 'keydown', 'touchstart']) document.addEventListener(type, () => (lastUse = Date.now()), { capture: true, passive: true });
  setInterval(() => {
    if (Date.now() - lastUse < Number(cfg.lockMs)) return;
    stopCamera();
    void postForm(`${base}/lock`, {}, cfg.csrf).finally(() => void lockNow());
  }, 10_000);
  document.getElementById('lock-form')?.addEventListener('submit', () => void forgetShell());

  prepareOffline();
}
