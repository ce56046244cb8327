import type { AppDeps } from '../../deps';
import type { WalletServices } from '../services';

/** AppDeps with the wallets resolved: what every public wallet route receives. */
export type WalletDeps = AppDeps & { wallet: WalletServices };
