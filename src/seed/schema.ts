import * as v from 'valibot';
import { CardConfig } from '../cards/schemas';
import { SCOPES } from '../keys/scopes';
import { emailAddressCheck } from '../lib/contact';
import { OrgSettingsSchema } from '../orgs/settings';
import { StaffInput } from '../staff/schemas';

const KeySeed = v.pipe(
  v.strictObject({
    // Optional like every seed field but the names and passType; the service names it `key-<n>`.
    deviceName: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100))),
    mode: v.optional(v.picklist(['live', 'test'])),
    scopes: v.optional(v.pipe(v.array(v.picklist(SCOPES)), v.minLength(1))),
    legacy: v.optional(v.boolean()),
  }),
  v.forward(v.check((k) => !(k.legacy && k.mode === 'test'), 'a legacy key (psk_<hex>) is always live'), ['mode']),
);

const AdminSeed = v.strictObject({
  email: v.pipe(v.string(), v.trim(), emailAddressCheck),
  // The operator chooses it (docs/operator.md#seed-file shows "…"); only an empty one is refused.
  password: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(200)),
});

/** The org's settings, each optional and checked as the console checks them, so a sandbox starts fully configured. */
const { language, country, timeZone, currency } = OrgSettingsSchema.entries;
const OrgSettingsSeed = v.strictObject({ language, country, timeZone, currency });

const OrgSeed = v.strictObject({
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100)),
  settings: v.optional(OrgSettingsSeed),
  admins: v.optional(v.array(AdminSeed), []),
  cards: v.optional(v.array(CardConfig), []),
  keys: v.optional(v.array(KeySeed), []),
  // Counter staff: a name and a 4–8 digit PIN, unique within the org.
  staff: v.optional(v.array(StaffInput), []),
});

/** The seed file (docs/operator.md#seed-file). Checks across entries (unique refs, emails) live in the service. */
export const SeedFile = v.strictObject({ orgs: v.pipe(v.array(OrgSeed), v.minLength(1)) });
export type SeedFileInput = v.InferOutput<typeof SeedFile>;
