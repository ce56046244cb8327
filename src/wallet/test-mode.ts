// Passes issued in test mode say so where the holder looks first, on both wallets and the web
// pass, so a test card can never pass for a real one at the counter.
const TEST_MODE_PREFIX = 'TEST · ';

/** The one rule for every name a pass shows (card name, logo text, description, Google program name). */
export function passDisplayName(name: string, testMode: boolean): string {
  return testMode ? `${TEST_MODE_PREFIX}${name}` : name;
}
