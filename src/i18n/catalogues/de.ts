import type { MessageKey } from './en';

// German, in the polite "Sie" customers expect from a shop. After a salutation ending in a comma
// ("Hallo Anna,") the next sentence starts in lower case, as German letters do.

const de = {
  'common.units': '{kind, select, stamp {{count, plural, one {# Stempel} other {# Stempel}}} other {{count, plural, one {# Punkt} other {# Punkte}}}}',
  'common.reward.stamps': '{reward} nach {cost, plural, one {# Stempel} other {# Stempeln}}',
  'common.reward.points': '{reward} ab {cost, plural, one {# Punkt} other {# Punkten}}',
  'common.labelValue': '{label}: {value}',

  'pass.description': 'Treuekarte {card}',
  'pass.member': 'Karteninhaber',
  'pass.balance.stamps': 'Stempel',
  'pass.balance.points': 'Punkte',
  'pass.balance.credit': 'Guthaben',
  'pass.balance.stamps.changed': 'Sie haben jetzt %@ Stempel.',
  'pass.balance.points.changed': 'Sie haben jetzt %@ Punkte.',
  'pass.balance.credit.changed': 'Ihr Guthaben beträgt jetzt %@.',
  'pass.level': 'Stufe',
  'pass.level.changed': 'Ihre Stufe ist jetzt %@.',
  'pass.nextLevel': 'Nächste Stufe: {level}',
  'pass.nextLevel.value': 'noch {points, number}',
  'pass.reward.ready': 'Jetzt einlösbar',
  'pass.reward.progress': '{have, number} von {cost, number}',
  'pass.nextReward': 'Nächste Prämie',
  'pass.nextReward.value':
    'noch {kind, select, stamp {{count, plural, one {# Stempel} other {# Stempel}}} other {{count, plural, one {# Punkt} other {# Punkte}}}} bis {reward}',
  'pass.expiring': 'Verfällt bald',
  'pass.expiring.value':
    '{kind, select, stamp {{count, plural, one {# Stempel verfällt} other {# Stempel verfallen}}} other {{count, plural, one {# Punkt verfällt} other {# Punkte verfallen}}}} am {date}',

  'email.greeting': 'Hallo {name},',
  'email.greeting.noName': 'Guten Tag,',
  'email.card.subject': 'Ihre Karte „{card}“ von {shop}',
  'email.card.title': '{shop}: Ihre Karte „{card}“',
  'email.card.intro': 'hier ist Ihre Treuekarte. So kommt sie auf Ihr Smartphone: Tippen Sie dort auf die Schaltfläche oder scannen Sie den Code mit der Kamera Ihres Smartphones.',
  'email.card.introText': 'hier ist Ihre Treuekarte. Öffnen Sie diesen Link auf Ihrem Smartphone, um sie dort zu speichern:',
  'email.card.button': 'Karte aufs Smartphone laden',
  'email.card.qrAlt': 'QR-Code mit dem Link zu Ihrer Karte',
  'email.card.orLink': 'Oder öffnen Sie diesen Link:',
  'email.card.footer': 'Sie erhalten diese E-Mail, weil Sie bei {shop} Ihre Treuekarte angefordert haben. Bitte geben Sie den Link nicht weiter: Er öffnet Ihre Karte.',
  'email.notice.button': 'Meine Karte öffnen',
  'email.notice.link': 'Zu Ihrer Karte: {link}',
  'email.notice.footer': 'Sie erhalten diese E-Mail, weil Sie eine Treuekarte von {shop} haben.',
  'email.notice.unsubscribe': 'Keine Erinnerungen und Geburtstagsgrüße mehr?',
  'email.notice.unsubscribe.link': 'Abmelden',
  'email.expiry.subject': '{shop}: {expiring}',
  'email.expiry.body':
    '{kind, select, stamp {{count, plural, one {auf Ihrer Karte „{card}“ verfällt am {date} # Stempel} other {auf Ihrer Karte „{card}“ verfallen am {date} # Stempel}}} other {{count, plural, one {auf Ihrer Karte „{card}“ verfällt am {date} # Punkt} other {auf Ihrer Karte „{card}“ verfallen am {date} # Punkte}}}}.',
  'email.expiry.useThem': '{kind, select, stamp {Lösen Sie Ihre Stempel bis dahin bei {shop} ein.} other {Lösen Sie Ihre Punkte bis dahin bei {shop} ein.}}',
  'email.birthday.subject': '{shop} gratuliert Ihnen zum Geburtstag!',
  'email.birthday.heading': 'Alles Gute zum Geburtstag!',
  'email.birthday.headingName': 'Alles Gute zum Geburtstag, {name}!',
  'email.birthday.body': 'Als kleines Geschenk hat {shop} Ihrer Karte „{card}“ {units} gutgeschrieben.',
  'email.birthday.closing': 'Wir freuen uns auf Ihren nächsten Besuch!',
  // --- poster ---
  'poster.instructions': 'Scannen Sie den Code mit der Kamera Ihres Smartphones – so bekommen Sie Ihre Treuekarte',
  'poster.scanToAdd': 'Scannen Sie diesen Code mit der Kamera Ihres Smartphones, um Ihre Karte auf Ihr Smartphone zu holen.',
  'poster.scanToAddNamed': '{name}, scannen Sie diesen Code mit der Kamera Ihres Smartphones, um Ihre Karte auf Ihr Smartphone zu holen.',
} satisfies Record<MessageKey, string>;

export default de;
