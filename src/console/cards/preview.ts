// The pass preview: the web pass a sample customer would see, drawn from the editor's form as it
// stands — before it is valid. What the schema would refuse is left out (a colour out of range
// shows the default) instead of failing: the preview follows typing, the save validates.
import type { Card, Level, PassType, Reward } from '../../cards/model';
import { MAX_REWARDS, PASS_TYPES, takesRewards } from '../../cards/model';
import { withRewards } from '../../cards/rewards';
import { readColor } from '../../lib/colors';
import { toHundredths } from '../../lib/money';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole } from '../../i18n/translate';
import type { PassHolder } from '../../wallet/pass-content';
import type { CardForm } from './form';
import { PREVIEW_PATH } from './preview-fields';


const amount = (text: string, passType: PassType): number | undefined => {
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 1e9) return undefined;
  return toHundredths(passType === 'prepaid_card' ? n : Math.round(n));
};

/** A card as far as the form already says it, with every unreadable part left out. */
/** The sample's own words (a card not yet named, a level card's one level) are the admin's language's. */
export function previewCard(form: CardForm, identity: { id: string; orgId: string }, lang: ConsoleLang = 'en'): Card {
  const passType = (PASS_TYPES as readonly string[]).includes(form.passType) ? (form.passType as PassType) : 'stamp_card';
  // The rewards as saving orders them: the readable ones, cheapest first.
  const rewards: Reward[] = [];
  if (takesRewards(passType)) {
    form.rewards.forEach((row, i) => {
      const cost = amount(row.cost, passType);
      if (row.name.trim() && cost !== undefined) rewards.push({ id: `rw_preview${i}`, name: row.name.trim().slice(0, 100), cost });
    });
    rewards.sort((a, b) => a.cost - b.cost);
  }
  const levels: Level[] = [];
  for (const row of form.levels) {
    const minPoints = row.minPoints.trim() === '0' ? 0 : amount(row.minPoints, passType);
    if (row.name.trim() && minPoints !== undefined && minPoints > (levels[levels.length - 1]?.minPoints ?? -1)) levels.push({ name: row.name.trim().slice(0, 50), minPoints });
  }
  const colour = (text: string) => (text.trim() && readColor(text) ? text.trim() : undefined);
  const design = {
    ...(colour(form.design.backgroundColor) ? { backgroundColor: colour(form.design.backgroundColor)! } : {}),
    ...(colour(form.design.foregroundColor) ? { foregroundColor: colour(form.design.foregroundColor)! } : {}),
    ...(colour(form.design.labelColor) ? { labelColor: colour(form.design.labelColor)! } : {}),
    ...(form.design.logoText.trim() ? { logoText: form.design.logoText.slice(0, 60) } : {}),
  };
  return {
    ...identity,
    name: form.name.trim().slice(0, 100) || tConsole(lang, 'console.cardEditor.previewCardName'),
    passType,
    dataCollectionEnabled: false,
    signupFields: { name: 'off', email: 'off', phone: 'off' },
    questions: [],
    ...withRewards(rewards.slice(0, MAX_REWARDS)),
    flagAwardsPerDay: null,
    unitValueE4: null,
    levels: levels.length ? levels : passType === 'level_card' ? [{ name: tConsole(lang, 'console.cardEditor.previewLevel'), minPoints: 0 }] : null,
    accrual: null,
    earningLimits: null,
    archivedAt: null,
    expiry: null,
    birthday: null,
    lotsSince: null,
    design,
    createdAt: 0,
    updatedAt: 0,
  };
}

/** A sample customer part of the way to the reward or the next level, so the progress shows. */
export function sampleHolder(card: Card, lang: ConsoleLang = 'en'): PassHolder {
  let balance: number;
  if (card.passType === 'prepaid_card') balance = 1250;
  else if (card.passType === 'level_card') {
    const [first, second] = card.levels ?? [];
    balance = second ? Math.floor((first!.minPoints + second.minPoints) / 200) * 100 : 4200;
  } else balance = card.reward ? Math.max(100, Math.floor((card.reward.cost * 0.6) / 100) * 100) : 600;
  return { balance, livemode: true, scanCode: 'SAMPLE-CODE', name: tConsole(lang, 'console.cardEditor.previewCustomer') };
}

/** The preview's address for the form as it stands (the same query the console script builds). */
export function previewUrl(form: CardForm, cardId: string | undefined): string {
  const query = new URLSearchParams();
  const add = (name: string, value: string) => {
    if (value !== '') query.append(name, value);
  };
  add('name', form.name);
  add('passType', form.passType);
  form.rewards.forEach((r, i) => {
    add(`rewards[${i}].name`, r.name);
    add(`rewards[${i}].cost`, r.cost);
  });
  form.levels.forEach((l, i) => {
    add(`levels[${i}].name`, l.name);
    add(`levels[${i}].minPoints`, l.minPoints);
  });
  for (const key of ['backgroundColor', 'foregroundColor', 'labelColor', 'logoText'] as const) add(`design.${key}`, form.design[key]);
  if (cardId) query.set('card', cardId);
  return `${PREVIEW_PATH}?${query.toString()}`;
}
