import type { MessageKey } from './en';

// Dutch, in the "je" Dutch and Flemish shops use with their customers; a loyalty card is a spaarkaart.

const nl = {
  'common.units': '{kind, select, stamp {{count, plural, one {# stempel} other {# stempels}}} other {{count, plural, one {# punt} other {# punten}}}}',
  'common.reward.stamps': '{reward} na {cost, plural, one {# stempel} other {# stempels}}',
  'common.reward.points': '{reward} bij {cost, plural, one {# punt} other {# punten}}',
  'common.labelValue': '{label}: {value}',

  'pass.description': 'Spaarkaart {card}',
  'pass.member': 'Kaarthouder',
  'pass.balance.stamps': 'Stempels',
  'pass.balance.points': 'Punten',
  'pass.balance.credit': 'Tegoed',
  'pass.balance.stamps.changed': 'Je hebt nu %@ stempels.',
  'pass.balance.points.changed': 'Je hebt nu %@ punten.',
  'pass.balance.credit.changed': 'Je tegoed is nu %@.',
  'pass.level': 'Niveau',
  'pass.level.changed': 'Je niveau is nu %@.',
  'pass.nextLevel': 'Volgende: {level}',
  'pass.nextLevel.value': 'nog {points, number}',
  'pass.reward.ready': 'Klaar om in te wisselen',
  'pass.reward.progress': '{have, number} van {cost, number}',
  'pass.nextReward': 'Volgende beloning',
  'pass.nextReward.value':
    'nog {kind, select, stamp {{count, plural, one {# stempel} other {# stempels}}} other {{count, plural, one {# punt} other {# punten}}}} tot {reward}',
  'pass.expiring': 'Verloopt binnenkort',
  'pass.expiring.value':
    '{kind, select, stamp {{count, plural, one {# stempel verloopt} other {# stempels verlopen}}} other {{count, plural, one {# punt verloopt} other {# punten verlopen}}}} op {date}',

  'email.greeting': 'Hallo {name},',
  'email.greeting.noName': 'Hallo,',
  'email.card.subject': 'Je spaarkaart {card} van {shop}',
  'email.card.title': '{shop}: je spaarkaart {card}',
  'email.card.intro': 'Hier is je spaarkaart. Zet hem op je telefoon: tik op je telefoon op de knop, of scan de code met de camera van je telefoon.',
  'email.card.introText': 'Hier is je spaarkaart. Open deze link op je telefoon om hem erop te zetten:',
  'email.card.button': 'Zet de kaart op mijn telefoon',
  'email.card.qrAlt': 'QR-code met de link naar je kaart',
  'email.card.orLink': 'Of open deze link:',
  'email.card.footer': 'Je ontvangt deze e-mail omdat je bij {shop} je spaarkaart hebt aangevraagd. Houd de link voor jezelf: hij opent je kaart.',
  'email.notice.button': 'Open mijn kaart',
  'email.notice.link': 'Open je kaart: {link}',
  'email.notice.footer': 'Je ontvangt deze e-mail omdat je een spaarkaart van {shop} hebt.',
  'email.notice.unsubscribe': 'Geen herinneringen en verjaardagsmails meer?',
  'email.notice.unsubscribe.link': 'Afmelden',
  'email.expiry.subject': '{shop}: {expiring}',
  'email.expiry.body':
    '{kind, select, stamp {{count, plural, one {Op je spaarkaart {card} verloopt op {date} # stempel} other {Op je spaarkaart {card} verlopen op {date} # stempels}}} other {{count, plural, one {Op je spaarkaart {card} verloopt op {date} # punt} other {Op je spaarkaart {card} verlopen op {date} # punten}}}}.',
  'email.expiry.useThem': '{kind, select, stamp {Wissel je stempels vóór die datum in bij {shop}.} other {Wissel je punten vóór die datum in bij {shop}.}}',
  'email.birthday.subject': 'Gefeliciteerd met je verjaardag, namens {shop}!',
  'email.birthday.heading': 'Gefeliciteerd met je verjaardag!',
  'email.birthday.headingName': 'Gefeliciteerd met je verjaardag, {name}!',
  'email.birthday.body': 'Als verjaardagscadeau heeft {shop} {units} op je spaarkaart {card} gezet.',
  'email.birthday.closing': 'We hopen je snel weer te zien!',
  // --- poster ---
  'poster.instructions': 'Scan de code met de camera van je telefoon en ontvang je spaarkaart',
  'poster.scanToAdd': 'Scan deze code met de camera van je telefoon om je kaart aan je telefoon toe te voegen.',
  'poster.scanToAddNamed': '{name}, scan deze code met de camera van je telefoon om je kaart aan je telefoon toe te voegen.',
} satisfies Record<MessageKey, string>;

export default nl;
