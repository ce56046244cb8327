import * as v from 'valibot';
import { SCOPES } from './scopes';

// A new key as an admin asks for one in the console: what it is for, its mode, and what it may do.

export const DEVICE_NAME_MAX = 100;

export const NewKeyInput = v.object({
  deviceName: v.pipe(v.string(), v.trim(), v.minLength(1, 'Name the device or integration that will use this key.'), v.maxLength(DEVICE_NAME_MAX, `At most ${DEVICE_NAME_MAX} characters.`)),
  mode: v.picklist(['live', 'test'], 'Choose live or test.'),
  scopes: v.pipe(v.array(v.picklist(SCOPES, 'Unknown permission.')), v.minLength(1, 'Choose at least one permission: a key without any can do nothing.')),
});
export type NewKeyInputValue = v.InferOutput<typeof NewKeyInput>;

/** What each scope lets a key do, in the words the console shows beside it. */
export const SCOPE_DESCRIPTIONS: Record<(typeof SCOPES)[number], string> = {
  'customers:read': 'Look up customers and their balances and history',
  'customers:write': 'Enroll customers and change their details',
  'loyalty:write': 'Award, redeem and correct stamps, points and credit',
  'webhooks:manage': 'Register and manage webhook endpoints',
  'cards:read': 'Read the loyalty cards',
  'cards:write': 'Create and change loyalty cards',
};
