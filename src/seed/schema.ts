import * as v from 'valibot';
import { CardConfig } from '../cards/schemas';
import { SCOPES } from '../keys/scopes';

const KeySeed = v.pipe(
  v.strictObject({
    deviceName: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100)),
    mode: v.optional(v.picklist(['live', 'test'])),
    scopes: v.optional(v.pipe(v.array(v.picklist(SCOPES)), v.minLength(1))),
    legacy: v.optional(v.boolean()),
  }),
  v.forward(v.check((k) => !(k.legacy && k.mode === 'test'), 'a legacy key (psk_<hex>) is always live'), ['mode']),
);

const AdminSeed = v.strictObject({
  email: v.pipe(v.string(), v.trim(), v.email()),
  password: v.pipe(v.string(), v.minLength(8, 'must be at least 8 characters')),
});

const OrgSeed = v.strictObject({
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100)),
  admins: v.optional(v.array(AdminSeed), []),
  cards: v.optional(
    v.pipe(
      v.array(CardConfig),
      v.check((cards) => {
        const refs = cards.flatMap((c) => (c.ref ? [c.ref] : []));
        return new Set(refs).size === refs.length;
      }, 'card refs must be unique within an org'),
    ),
    [],
  ),
  keys: v.optional(v.array(KeySeed), []),
});

/** The seed file of decisions §6. */
export const SeedFile = v.pipe(
  v.strictObject({ orgs: v.pipe(v.array(OrgSeed), v.minLength(1)) }),
  v.check((file) => {
    const emails = file.orgs.flatMap((o) => o.admins.map((a) => a.email.toLowerCase()));
    return new Set(emails).size === emails.length;
  }, 'admin emails must be unique'),
);
export type SeedFileInput = v.InferOutput<typeof SeedFile>;
