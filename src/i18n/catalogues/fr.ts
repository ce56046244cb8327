import type { MessageKey } from './en';

// French, in the "vous" of French shops, with its typography: a no-break space before : ! ?.

const fr = {
  'common.units': '{kind, select, stamp {{count, plural, one {# tampon} other {# tampons}}} other {{count, plural, one {# point} other {# points}}}}',
  'common.reward.stamps': '{reward} après {cost, plural, one {# tampon} other {# tampons}}',
  'common.reward.points': '{reward} dès {cost, plural, one {# point} other {# points}}',
  'common.labelValue': '{label}\u00a0: {value}',

  'pass.description': 'Carte de fidélité {card}',
  'pass.member': 'Titulaire',
  'pass.balance.stamps': 'Tampons',
  'pass.balance.points': 'Points',
  'pass.balance.credit': 'Solde',
  'pass.balance.stamps.changed': 'Vous avez maintenant %@ tampons.',
  'pass.balance.points.changed': 'Vous avez maintenant %@ points.',
  'pass.balance.credit.changed': 'Votre solde est maintenant de %@.',
  'pass.level': 'Niveau',
  'pass.level.changed': 'Vous êtes maintenant au niveau %@.',
  'pass.nextLevel': 'Prochain niveau\u00a0: {level}',
  'pass.nextLevel.value': 'encore {points, number}',
  'pass.reward.ready': 'Disponible dès maintenant',
  'pass.reward.progress': '{have, number} sur {cost, number}',
  'pass.nextReward': 'Prochaine récompense',
  'pass.nextReward.value':
    'encore {kind, select, stamp {{count, plural, one {# tampon} other {# tampons}}} other {{count, plural, one {# point} other {# points}}}} pour {reward}',
  'pass.expiring': 'Expiration',
  'pass.expiring.value':
    '{kind, select, stamp {{count, plural, one {# tampon expire} other {# tampons expirent}}} other {{count, plural, one {# point expire} other {# points expirent}}}} le {date}',

  'email.greeting': 'Bonjour {name},',
  'email.greeting.noName': 'Bonjour,',
  'email.card.subject': 'Votre carte {card} de chez {shop}',
  'email.card.title': '{shop}\u00a0: votre carte {card}',
  'email.card.intro': 'Voici votre carte de fidélité. Ajoutez-la à votre téléphone\u00a0: touchez le bouton depuis votre téléphone, ou scannez le code avec l’appareil photo de votre téléphone.',
  'email.card.introText': 'Voici votre carte de fidélité. Pour l’ajouter à votre téléphone, ouvrez ce lien depuis celui-ci\u00a0:',
  'email.card.button': 'Ajouter la carte à mon téléphone',
  'email.card.qrAlt': 'Code QR du lien vers votre carte',
  'email.card.orLink': 'Ou ouvrez ce lien\u00a0:',
  'email.card.footer': 'Vous recevez cet e-mail parce que vous avez demandé votre carte de fidélité à {shop}. Gardez ce lien pour vous\u00a0: il ouvre votre carte.',
  'email.notice.button': 'Ouvrir ma carte',
  'email.notice.link': 'Ouvrir votre carte\u00a0: {link}',
  'email.notice.footer': 'Vous recevez cet e-mail parce que vous avez une carte de fidélité chez {shop}.',
  'email.notice.unsubscribe': 'Vous ne souhaitez plus recevoir de rappels ni de vœux d’anniversaire\u00a0?',
  'email.notice.unsubscribe.link': 'Se désabonner',
  'email.expiry.subject': '{shop}\u00a0: {expiring}',
  'email.expiry.body':
    '{kind, select, stamp {{count, plural, one {# tampon de votre carte {card} expire} other {# tampons de votre carte {card} expirent}}} other {{count, plural, one {# point de votre carte {card} expire} other {# points de votre carte {card} expirent}}}} le {date}.',
  'email.expiry.useThem': '{kind, select, stamp {Pensez à utiliser vos tampons chez {shop} d’ici là.} other {Pensez à utiliser vos points chez {shop} d’ici là.}}',
  'email.birthday.subject': 'Joyeux anniversaire de la part de {shop}\u00a0!',
  'email.birthday.heading': 'Joyeux anniversaire\u00a0!',
  'email.birthday.headingName': 'Joyeux anniversaire, {name}\u00a0!',
  'email.birthday.body': 'Pour votre anniversaire, {shop} vous offre {units} sur votre carte {card}.',
  'email.birthday.closing': 'Au plaisir de vous revoir très bientôt\u00a0!',
  // --- poster ---
  'poster.instructions': 'Scannez le code avec l’appareil photo de votre téléphone pour obtenir votre carte de fidélité',
  'poster.scanToAdd': 'Scannez ce code avec l’appareil photo de votre téléphone pour y ajouter votre carte.',
  'poster.scanToAddNamed': '{name}, scannez ce code avec l’appareil photo de votre téléphone pour y ajouter votre carte.',
} satisfies Record<MessageKey, string>;

export default fr;
