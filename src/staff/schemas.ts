import * as v from 'valibot';
import { PIN_PATTERN, STAFF_NAME_MAX } from './model';

export const StaffName = v.pipe(v.string(), v.trim(), v.minLength(1, 'enter a name'), v.maxLength(STAFF_NAME_MAX, `at most ${STAFF_NAME_MAX} characters`));
export const StaffPin = v.pipe(v.string(), v.trim(), v.regex(PIN_PATTERN, 'a PIN is 4 to 8 digits'));

/** A staff member as the seed file and the console's "add staff" form give one. */
export const StaffInput = v.strictObject({ name: StaffName, pin: StaffPin });
export type StaffInputValue = v.InferOutput<typeof StaffInput>;
