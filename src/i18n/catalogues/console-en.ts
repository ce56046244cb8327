// The console's English catalogue: the console is in English or German, each admin's choice, so
// its messages live apart from the customers' six languages (docs/translations.md).

const consoleEn = {
  'console.account.title': 'Account',
  'console.account.signedInAs': 'Signed in as {email}.',
  'console.account.changePassword': 'Change password',
  'console.account.language': 'Console language',
  'console.account.languageHint': 'The language you see the console in. Each admin chooses their own.',
  'console.account.languageInvalid': 'Pick a language from the list.',
  'console.account.save': 'Save',
  'console.account.saved': 'Saved.',
};

export default consoleEn;

export type ConsoleKey = keyof typeof consoleEn;
