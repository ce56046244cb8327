/** A member of the shop's staff: unlocks the counter with a PIN; everything they do is attributed to them. */
export interface Staff {
  id: string;
  orgId: string;
  name: string;
  status: 'active' | 'disabled';
  createdAt: number;
  updatedAt: number;
}

/** PINs are 4 to 8 digits. */
export const PIN_PATTERN = /^\d{4,8}$/;
export const STAFF_NAME_MAX = 60;
