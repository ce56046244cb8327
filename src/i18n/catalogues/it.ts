import type { MessageKey } from './en';

// Italian, in the "tu" Italian cafés and shops use with their regulars.

const it = {
  'common.units': '{kind, select, stamp {{count, plural, one {# timbro} other {# timbri}}} other {{count, plural, one {# punto} other {# punti}}}}',
  'common.reward.stamps': '{reward} dopo {cost, plural, one {# timbro} other {# timbri}}',
  'common.reward.points': '{reward} con {cost, plural, one {# punto} other {# punti}}',
  'common.labelValue': '{label}: {value}',

  'pass.description': 'Carta fedeltà {card}',
  'pass.member': 'Titolare',
  'pass.balance.stamps': 'Timbri',
  'pass.balance.points': 'Punti',
  'pass.balance.credit': 'Credito',
  'pass.balance.stamps.changed': 'Ora hai %@ timbri.',
  'pass.balance.points.changed': 'Ora hai %@ punti.',
  'pass.balance.credit.changed': 'Il tuo credito ora è di %@.',
  'pass.level': 'Livello',
  'pass.level.changed': 'Ora sei al livello %@.',
  'pass.nextLevel': 'Prossimo livello: {level}',
  'pass.nextLevel.value': 'ne mancano {points, number}',
  'pass.reward.ready': 'Pronto da riscattare',
  'pass.reward.progress': '{have, number} su {cost, number}',
  'pass.nextReward': 'Prossimo premio',
  'pass.nextReward.value':
    'ancora {kind, select, stamp {{count, plural, one {# timbro} other {# timbri}}} other {{count, plural, one {# punto} other {# punti}}}} per {reward}',
  'pass.expiring': 'In scadenza',
  'pass.expiring.value':
    '{kind, select, stamp {{count, plural, one {# timbro scade} other {# timbri scadono}}} other {{count, plural, one {# punto scade} other {# punti scadono}}}} il {date}',

  'email.greeting': 'Ciao {name}!',
  'email.greeting.noName': 'Ciao!',
  'email.card.subject': 'La tua carta {card} di {shop}',
  'email.card.title': '{shop}: la tua carta {card}',
  'email.card.intro': 'Ecco la tua carta fedeltà. Aggiungila al telefono: tocca il pulsante dal telefono oppure inquadra il codice con la fotocamera.',
  'email.card.introText': 'Ecco la tua carta fedeltà. Per aggiungerla al telefono, apri questo link dal telefono:',
  'email.card.button': 'Aggiungi la carta al mio telefono',
  'email.card.qrAlt': 'Codice QR con il link alla tua carta',
  'email.card.orLink': 'Oppure apri questo link:',
  'email.card.footer': 'Ricevi questa email perché hai chiesto a {shop} la tua carta fedeltà. Non condividere il link: apre la tua carta.',
  'email.notice.button': 'Apri la mia carta',
  'email.notice.link': 'Apri la tua carta: {link}',
  'email.notice.footer': 'Ricevi questa email perché hai una carta fedeltà di {shop}.',
  'email.notice.unsubscribe': 'Non vuoi più ricevere promemoria e auguri di compleanno?',
  'email.notice.unsubscribe.link': 'Annulla l’iscrizione',
  'email.expiry.subject': '{shop}: {expiring}',
  'email.expiry.body':
    '{kind, select, stamp {{count, plural, one {# timbro della tua carta {card} scade} other {# timbri della tua carta {card} scadono}}} other {{count, plural, one {# punto della tua carta {card} scade} other {# punti della tua carta {card} scadono}}}} il {date}.',
  'email.expiry.useThem': '{kind, select, stamp {Usa i tuoi timbri da {shop} entro quella data.} other {Usa i tuoi punti da {shop} entro quella data.}}',
  'email.birthday.subject': 'Buon compleanno da {shop}!',
  'email.birthday.heading': 'Buon compleanno!',
  'email.birthday.headingName': 'Buon compleanno, {name}!',
  'email.birthday.body': 'Per festeggiare, {shop} ha aggiunto {units} alla tua carta {card}.',
  'email.birthday.closing': 'Ti aspettiamo presto!',
  // --- poster ---
  'poster.instructions': 'Inquadra il codice con la fotocamera del telefono e ricevi la tua carta fedeltà',
  'poster.scanToAdd': 'Inquadra questo codice con la fotocamera del telefono per aggiungere la tua carta al telefono.',
  'poster.scanToAddNamed': '{name}, inquadra questo codice con la fotocamera del telefono per aggiungere la tua carta al telefono.',
} satisfies Record<MessageKey, string>;

export default it;
