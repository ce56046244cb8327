// Passes issued in test mode say so where the holder looks first, on both wallets, so a test
// card can never pass for a real one at the counter.
export const TEST_MODE_PREFIX = 'TEST · ';
