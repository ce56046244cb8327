// Which wallet a browser can take directly. Every browser on iPhone and iPad is WebKit and hands
// a .pkpass to Wallet; Android phones take the Google Wallet save link. iPadOS in desktop mode
// reports a Mac: it gets the choice page, whose Apple button works the same.
export type Platform = 'ios' | 'android' | 'other';

export function platformOf(userAgent: string): Platform {
  if (/\b(iPhone|iPad|iPod)\b/.test(userAgent)) return 'ios';
  if (/\bAndroid\b/.test(userAgent)) return 'android';
  return 'other';
}
