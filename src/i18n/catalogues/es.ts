import type { MessageKey } from './en';

// Spanish, in the "tú" Spanish shops and cafés use with their customers.

const es = {
  'common.units': '{kind, select, stamp {{count, plural, one {# sello} other {# sellos}}} other {{count, plural, one {# punto} other {# puntos}}}}',
  'common.reward.stamps': '{reward} al conseguir {cost, plural, one {# sello} other {# sellos}}',
  'common.reward.points': '{reward} a partir de {cost, plural, one {# punto} other {# puntos}}',
  'common.labelValue': '{label}: {value}',

  'pass.description': 'Tarjeta de fidelidad {card}',
  'pass.member': 'Titular',
  'pass.balance.stamps': 'Sellos',
  'pass.balance.points': 'Puntos',
  'pass.balance.credit': 'Saldo',
  'pass.balance.stamps.changed': 'Ahora tienes %@ sellos.',
  'pass.balance.points.changed': 'Ahora tienes %@ puntos.',
  'pass.balance.credit.changed': 'Tu saldo es ahora de %@.',
  'pass.level': 'Nivel',
  'pass.level.changed': 'Ahora estás en el nivel %@.',
  'pass.nextLevel': 'Siguiente: {level}',
  'pass.nextLevel.value': 'faltan {points, number}',
  'pass.reward.ready': 'Listo para canjear',
  'pass.reward.progress': '{have, number} de {cost, number}',
  'pass.nextReward': 'Próxima recompensa',
  'pass.nextReward.value':
    '{kind, select, stamp {{count, plural, one {falta # sello} other {faltan # sellos}}} other {{count, plural, one {falta # punto} other {faltan # puntos}}}} para {reward}',
  'pass.expiring': 'Caducidad',
  'pass.expiring.value':
    '{kind, select, stamp {{count, plural, one {# sello caduca} other {# sellos caducan}}} other {{count, plural, one {# punto caduca} other {# puntos caducan}}}} el {date}',

  'email.greeting': '¡Hola, {name}!',
  'email.greeting.noName': '¡Hola!',
  'email.card.subject': 'Tu tarjeta {card} de {shop}',
  'email.card.title': '{shop}: tu tarjeta {card}',
  'email.card.intro': 'Aquí tienes tu tarjeta de fidelidad. Añádela a tu móvil: toca el botón desde el móvil o escanea el código con la cámara.',
  'email.card.introText': 'Aquí tienes tu tarjeta de fidelidad. Para añadirla a tu móvil, abre este enlace desde el móvil:',
  'email.card.button': 'Añadir la tarjeta a mi móvil',
  'email.card.qrAlt': 'Código QR con el enlace a tu tarjeta',
  'email.card.orLink': 'O abre este enlace:',
  'email.card.footer': 'Recibes este correo porque has pedido tu tarjeta de fidelidad a {shop}. No compartas el enlace: abre tu tarjeta.',
  'email.notice.button': 'Abrir mi tarjeta',
  'email.notice.link': 'Abre tu tarjeta: {link}',
  'email.notice.footer': 'Recibes este correo porque tienes una tarjeta de fidelidad de {shop}.',
  'email.notice.unsubscribe': '¿No quieres recibir más recordatorios ni felicitaciones de cumpleaños?',
  'email.notice.unsubscribe.link': 'Darse de baja',
  'email.expiry.subject': '{shop}: {expiring}',
  'email.expiry.body':
    '{kind, select, stamp {{count, plural, one {# sello de tu tarjeta {card} caduca} other {# sellos de tu tarjeta {card} caducan}}} other {{count, plural, one {# punto de tu tarjeta {card} caduca} other {# puntos de tu tarjeta {card} caducan}}}} el {date}.',
  'email.expiry.useThem': '{kind, select, stamp {Canjea tus sellos en {shop} antes de esa fecha.} other {Canjea tus puntos en {shop} antes de esa fecha.}}',
  'email.birthday.subject': '¡{shop} te desea feliz cumpleaños!',
  'email.birthday.heading': '¡Feliz cumpleaños!',
  'email.birthday.headingName': '¡Feliz cumpleaños, {name}!',
  'email.birthday.body': 'Para celebrarlo, {shop} te ha regalado {units} en tu tarjeta {card}.',
  'email.birthday.closing': '¡Esperamos verte pronto!',
  // --- poster ---
  'poster.instructions': 'Escanea el código con la cámara de tu móvil y consigue tu tarjeta de fidelidad',
  'poster.scanToAdd': 'Escanea este código con la cámara de tu móvil para añadir tu tarjeta al móvil.',
  'poster.scanToAddNamed': '{name}, escanea este código con la cámara de tu móvil para añadir tu tarjeta al móvil.',
} satisfies Record<MessageKey, string>;

export default es;
