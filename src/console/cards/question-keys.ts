import { RESERVED_KEYS } from '../../cards/reserved-keys';

// A question's key and a choice's stored value, made from what the owner wrote (the question, the
// choice's label), so the owner never has to invent an identifier: "Favourite drink" → favouriteDrink,
// "Oat milk" → oatMilk. Integrators see and may change them under "Advanced"; once saved they stay
// as they are when the label changes, since answers are stored under them.

const MAX_KEY = 64;

/** camelCase ASCII of the text's letters and digits, starting with a letter; '' when none are left. */
export function identifierFrom(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const camel = words.map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())).join('');
  const start = camel.search(/[A-Za-z]/);
  return start < 0 ? '' : camel.slice(start).slice(0, MAX_KEY);
}

/** A key not among `taken` (compared case-insensitively), nor (question keys) a reserved one. */
function unique(base: string, taken: Set<string>, fallback: string, reserved: boolean): string {
  let key = base || fallback;
  if (reserved && (RESERVED_KEYS as readonly string[]).includes(key.toLowerCase())) key = `${key}Answer`;
  let candidate = key;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${key.slice(0, MAX_KEY - String(n).length)}${n}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/**
 * Fills in the blank keys of questions and blank values of choices from their labels; keys and
 * values already there are kept (and reserved first, so a new one never takes an existing name).
 */
export function fillKeys<Q extends { key: string; label: string; options: { value: string; label: string }[] }>(questions: Q[]): Q[] {
  const taken = new Set(questions.map((q) => q.key.trim().toLowerCase()).filter(Boolean));
  return questions.map((q, i) => {
    const key = q.key.trim() || (q.label.trim() ? unique(identifierFrom(q.label), taken, `question${i + 1}`, true) : '');
    const values = new Set(q.options.map((o) => o.value.trim().toLowerCase()).filter(Boolean));
    const options = q.options.map((o, j) => ({ ...o, value: o.value.trim() || (o.label.trim() ? unique(identifierFrom(o.label), values, `choice${j + 1}`, false) : '') }));
    return { ...q, key, options };
  });
}
