import type { MigrationStep } from './step';

export default {
  version: 21,
  name: 'abuse limits: the counter devices staff use, sign-up emails held back',
  sql: `
-- Devices (their wl_device cookie, stored as its SHA-256) on which staff unlocked an org's counter
-- with a right PIN: wrong PINs typed on other devices never pause their unlocking. Forgotten 30
-- days after the last unlock.
CREATE TABLE counter_devices (
  org_id            TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  device_hash       TEXT NOT NULL,
  last_unlocked_at  INTEGER NOT NULL,
  PRIMARY KEY (org_id, device_hash)
) WITHOUT ROWID;

-- Card emails asked for on the sign-up pages that the abuse limits held back, counted per org,
-- namespace, shop-local day and limit, so the console can say how many. No address is kept.
CREATE TABLE mail_holds (
  org_id    TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  livemode  INTEGER NOT NULL,
  day       TEXT NOT NULL,
  reason    TEXT NOT NULL CHECK (reason = 'recipient' OR reason = 'client'),
  held      INTEGER NOT NULL,
  PRIMARY KEY (org_id, livemode, day, reason)
) WITHOUT ROWID;
`,
} satisfies MigrationStep;
