// Which wallets this server can issue passes for, loaded once at start from the operator's
// settings. A wallet whose settings are all unset is simply off; a partial or broken setup stops
// the start with one line naming the setting, instead of broken passes later.
import { ConfigError, type Config } from '../config';
import type { Clock } from '../lib/clock';
import { hostOf, isLoopbackHost } from '../lib/url-host';
import { loadAppleCredentials, REQUIRED_APPLE_SETTINGS, type AppleCredentials } from './apple/credentials';
import { createRootKeysCache, type RootKeysCache } from './google/root-keys';
import { loadServiceAccount, type GoogleServiceAccount } from './google/service-account';

export const APPLE_SETTINGS = REQUIRED_APPLE_SETTINGS;
export const GOOGLE_SETTINGS = ['GOOGLE_ISSUER_ID', 'GOOGLE_SERVICE_ACCOUNT_FILE'] as const;

export interface GoogleWallet {
  issuerId: string;
  serviceAccount: GoogleServiceAccount;
  rootKeys: RootKeysCache;
}

export interface WalletServices {
  apple: AppleCredentials | null;
  google: GoogleWallet | null;
}

export function loadWalletServices(config: Readonly<Config>, clock: Clock): WalletServices {
  return { apple: loadApple(config), google: loadGoogle(config, clock) };
}

/**
 * The settings each wallet that is off still needs, for the operator: the start-up log says them
 * once, and the console's settings page can show them. Never shown to a customer.
 */
export function missingWalletSettings(wallet: WalletServices): { apple: readonly string[]; google: readonly string[] } {
  return { apple: wallet.apple ? [] : [...APPLE_SETTINGS], google: wallet.google ? [] : [...GOOGLE_SETTINGS] };
}

function loadApple(config: Readonly<Config>): AppleCredentials | null {
  const a = config.apple;
  let result;
  try {
    result = loadAppleCredentials({
      APPLE_PASS_TYPE_ID: a.passTypeId,
      APPLE_TEAM_ID: a.teamId,
      APPLE_PASS_CERT: a.certFile,
      APPLE_PASS_KEY: a.keyFile,
      APPLE_WWDR_CERT: a.wwdrFile,
      APPLE_PASS_KEY_PASSPHRASE: a.keyPassphrase,
    });
  } catch (err) {
    throw new ConfigError(`Invalid setting ${(err as Error).message}`);
  }
  if (result.configured) return result;
  if (result.missing.length === APPLE_SETTINGS.length) return null;
  throw new ConfigError(`Apple Wallet is partly configured: also set ${result.missing.join(', ')} (or unset all APPLE_* settings)`);
}

function loadGoogle(config: Readonly<Config>, clock: Clock): GoogleWallet | null {
  const { issuerId, serviceAccountFile } = config.google;
  if (!issuerId && !serviceAccountFile) return null;
  if (!issuerId || !serviceAccountFile) {
    throw new ConfigError(`Google Wallet is partly configured: set both ${GOOGLE_SETTINGS.join(' and ')} (or neither)`);
  }
  if (!/^\d+$/.test(issuerId)) throw new ConfigError(`Invalid setting GOOGLE_ISSUER_ID: expected the digits of your issuer id, got "${issuerId}"`);
  let serviceAccount: GoogleServiceAccount;
  try {
    serviceAccount = loadServiceAccount(serviceAccountFile);
  } catch (err) {
    throw new ConfigError(`Invalid setting ${(err as Error).message}`);
  }
  return { issuerId, serviceAccount, rootKeys: createRootKeysCache(config.google.rootKeysUrl, clock) };
}

/**
 * Every Apple pass carries `${PUBLIC_URL}/wallet` as its webServiceURL for good. iPhones only use
 * it over HTTPS (outside development) and from wherever they are, so a PUBLIC_URL left at its
 * http://localhost default, or any other one phones cannot use, issues passes that never update.
 * Returns the line to log at start, or undefined when there is nothing to say.
 */
export function publicUrlWarning(config: Readonly<Config>, wallet: WalletServices): string | undefined {
  if (!wallet.apple) return undefined;
  const url = new URL(config.publicUrl);
  const host = hostOf(url);
  const local = isLoopbackHost(host) || /^10\./.test(host) || /^192\.168\./.test(host) || /^172\.(1[6-9]|2\d|3[01])\./.test(host);
  if (local) {
    return `wallet: PUBLIC_URL ${config.publicUrl} is an address phones cannot reach; Apple passes issued now will never update (set PUBLIC_URL to the public HTTPS address)`;
  }
  if (url.protocol !== 'https:') {
    return `wallet: PUBLIC_URL ${config.publicUrl} is not HTTPS; iPhones register Apple passes for updates over HTTPS only, so passes issued now will not update`;
  }
  return undefined;
}
