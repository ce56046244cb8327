// The English catalogue: the source every other language translates, key for key. Messages are
// ICU MessageFormat (plurals, selects, {name} arguments); docs/translations.md says how to add one.
// `%@` is Apple Wallet's own placeholder for a changed value (lock-screen notices): it stays as is.

const en = {
  // --- common: pieces several areas share ---
  'common.units': '{kind, select, stamp {{count, plural, one {# stamp} other {# stamps}}} other {{count, plural, one {# point} other {# points}}}}',
  'common.reward.stamps': '{reward} after {cost, plural, one {# stamp} other {# stamps}}',
  'common.reward.points': '{reward} at {cost, plural, one {# point} other {# points}}',
  'common.labelValue': '{label}: {value}',

  // --- pass: the Apple and Google passes and the web pass (labels, values, lock-screen notices) ---
  'pass.description': '{card} loyalty card',
  'pass.member': 'Member',
  'pass.balance.stamps': 'Stamps',
  'pass.balance.points': 'Points',
  'pass.balance.credit': 'Credit',
  'pass.balance.stamps.changed': 'You now have %@ stamps.',
  'pass.balance.points.changed': 'You now have %@ points.',
  'pass.balance.credit.changed': 'Your credit is now %@.',
  'pass.level': 'Level',
  'pass.level.changed': 'Your level is now %@.',
  'pass.nextLevel': 'Next: {level}',
  'pass.nextLevel.value': '{points, number} to go',
  'pass.reward.ready': 'Ready to redeem',
  'pass.reward.progress': '{have, number} of {cost, number}',
  'pass.nextReward': 'Next reward',
  'pass.nextReward.value':
    '{kind, select, stamp {{count, plural, one {# stamp} other {# stamps}}} other {{count, plural, one {# point} other {# points}}}} to {reward}',
  'pass.expiring': 'Expiring',
  'pass.expiring.value':
    '{kind, select, stamp {{count, plural, one {# stamp expires} other {# stamps expire}}} other {{count, plural, one {# point expires} other {# points expire}}}} on {date}',

  // --- email: what customers are sent (their card, the expiry reminder, the birthday greeting) ---
  'email.greeting': 'Hello {name},',
  'email.greeting.noName': 'Hello,',
  'email.card.subject': 'Your {card} card from {shop}',
  'email.card.title': '{shop}: your {card} card',
  'email.card.intro': 'Here is your loyalty card. Add it to your phone: tap the button on your phone, or scan the code with your phone’s camera.',
  'email.card.introText': 'Here is your loyalty card. To add it to your phone, open this link on your phone:',
  'email.card.button': 'Add the card to my phone',
  'email.card.qrAlt': 'QR code of the link to your card',
  'email.card.orLink': 'Or open this link:',
  'email.card.footer': 'You receive this email because you asked {shop} for your loyalty card. Keep the link to yourself: it opens your card.',
  'email.notice.button': 'Open my card',
  'email.notice.link': 'Open your card: {link}',
  'email.notice.footer': 'You receive this email because you have a loyalty card from {shop}.',
  'email.notice.unsubscribe': 'No more reminder and birthday emails?',
  'email.notice.unsubscribe.link': 'Unsubscribe',
  'email.expiry.subject': '{shop}: {expiring}',
  'email.expiry.body':
    '{kind, select, stamp {{count, plural, one {# stamp on your {card} card expires} other {# stamps on your {card} card expire}}} other {{count, plural, one {# point on your {card} card expires} other {# points on your {card} card expire}}}} on {date}.',
  'email.expiry.useThem': '{kind, select, stamp {Use your stamps at {shop} before then.} other {Use your points at {shop} before then.}}',
  'email.birthday.subject': 'Happy birthday from {shop}!',
  'email.birthday.heading': 'Happy birthday!',
  'email.birthday.headingName': 'Happy birthday, {name}!',
  'email.birthday.body': 'As a birthday treat, {shop} has added {units} to your {card} card.',
  'email.birthday.closing': 'We look forward to seeing you soon!',
  // --- poster ---
  'poster.instructions': 'Scan with your phone\'s camera to get your loyalty card',
  'poster.scanToAdd': 'Scan this with your phone’s camera to add your card to your phone.',
  'poster.scanToAddNamed': '{name}, scan this with your phone’s camera to add your card to your phone.',
};

export default en;

/** Every message a customer or a staff member can be shown. */
export type MessageKey = keyof typeof en;
