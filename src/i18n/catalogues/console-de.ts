import type { ConsoleKey } from './console-en';

// The console in German, in the "Sie" of business software. "Console" is "Verwaltung" here:
// the word a shop owner uses for the pages where they run their loyalty programme.

const consoleDe = {
  'console.account.title': 'Konto',
  'console.account.signedInAs': 'Angemeldet als {email}.',
  'console.account.changePassword': 'Passwort ändern',
  'console.account.language': 'Sprache der Verwaltung',
  'console.account.languageHint': 'In dieser Sprache sehen Sie die Verwaltung. Jede Person mit Zugang wählt ihre eigene.',
  'console.account.languageInvalid': 'Wählen Sie eine Sprache aus der Liste.',
  'console.account.save': 'Speichern',
  'console.account.saved': 'Gespeichert.',
} satisfies Record<ConsoleKey, string>;

export default consoleDe;
